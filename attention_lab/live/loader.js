// ---- loader.js: the ES module a widget stores (anywidget's _esm): the front-end packed, unpacked once a page ----
//
// A stored notebook keeps each widget's module, so the bundle and its styles travel here gzipped in
// base64, a third of their size. The first widget of a browser page unpacks them into a module and one <style>;
// every other widget with the same front-end (the same KEY) shares that module. No kernel is needed for any of it.
const PACKED = "__PACKED__", KEY = "__KEY__";

async function unpack() {
  const bytes = Uint8Array.from(atob(PACKED), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  const [js, css] = JSON.parse(await new Response(stream).text());
  const style = document.createElement("style");
  style.dataset.attentionLab = KEY;
  style.textContent = css;
  document.head.append(style);
  const url = URL.createObjectURL(new Blob([js], { type: "text/javascript" }));
  try {
    return (await import(url)).default;
  } finally {
    URL.revokeObjectURL(url);
  }
}

const unpacked = ((globalThis.attentionLabFrontEnds ??= {})[KEY] ??= unpack());

async function render(context) {  // anywidget's render: the front-end's, once it is unpacked
  return (await unpacked).render(context);
}

export default { render };

// ---- site.js: what the course site's pages do beyond the widgets ------------------------------------------------
//
// A copy button on each code cell; the search box (Pagefind's interface, over both editions); on a narrow screen the side contents and "on this page" start folded. The words are the page's
// (<body data-copy data-copied>, from the word table).
(() => {
  const words = document.body.dataset;

  for (const pre of document.querySelectorAll("pre.al-code")) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "site-copy";
    button.textContent = words.copy;
    button.addEventListener("click", async () => {
      const code = pre.querySelector("code").textContent;
      try {
        await navigator.clipboard.writeText(code);
      } catch (e) {  // a page from disk, or a browser without the clipboard API: select the code to copy by hand
        const range = document.createRange();
        range.selectNodeContents(pre.querySelector("code"));
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        return;
      }
      button.textContent = words.copied;
      setTimeout(() => { button.textContent = words.copy; }, 1500);
    });
    pre.classList.add("site-has-copy");
    pre.prepend(button);
  }

  // The search: a plain box until the reader first uses it; then Pagefind's interface (120 KB) loads and takes its
  // place, over both editions' pages (one index, built with the site).
  const box = document.querySelector(".site-search");
  if (box) {
    const start = box.querySelector(".site-search-start");
    const bundle = new URL(box.dataset.bundle, location.href);
    let loading = false;
    const load = () => {
      if (loading) return;
      loading = true;
      const style = document.createElement("link");
      style.rel = "stylesheet";
      style.href = new URL("pagefind-ui.css", bundle).href;
      document.head.append(style);
      const script = document.createElement("script");
      script.src = new URL("pagefind-ui.js", bundle).href;
      script.onload = () => {
        const typed = start.value;
        start.remove();
        new window.PagefindUI({
          element: box, showSubResults: true, showImages: false, resetStyles: false, bundlePath: bundle.pathname,
        });
        const input = box.querySelector("input");
        if (input) {
          input.focus();
          if (typed) {
            input.value = typed;
            input.dispatchEvent(new Event("input", { bubbles: true }));
          }
        }
      };
      document.head.append(script);
    };
    start.addEventListener("focus", load);
    start.addEventListener("input", load);
  }

  if (window.matchMedia && window.matchMedia("(max-width: 900px)").matches) {
    for (const fold of document.querySelectorAll("details.site-side, details.site-onpage")) fold.open = false;
  }
})();

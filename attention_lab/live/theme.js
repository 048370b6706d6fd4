// ---- theme.js: the page's light / dark toggle ---------------------------------------------------------------------
//
// Without a choice the page follows the system's colour scheme (prefers-color-scheme in the styles); a press of a
// .al-theme-toggle button sets <html data-al-theme="light|dark">, which the styles read, and keeps the choice for the
// next page in localStorage (where the browser allows it: a file:// page in some browsers does not).
(() => {
  const root = document.documentElement;
  const KEY = "attention-lab-theme";
  const system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  try {
    const saved = window.localStorage.getItem(KEY);
    if (saved === "light" || saved === "dark") root.dataset.alTheme = saved;
  } catch (e) { /* no storage here: the system's scheme it is */ }
  const isDark = () => (root.dataset.alTheme ? root.dataset.alTheme === "dark" : Boolean(system && system.matches));
  const show = () => {
    for (const button of document.querySelectorAll(".al-theme-toggle")) {
      button.setAttribute("aria-pressed", String(isDark()));
    }
  };
  const press = () => {
    root.dataset.alTheme = isDark() ? "light" : "dark";
    try { window.localStorage.setItem(KEY, root.dataset.alTheme); } catch (e) { /* the choice lasts this page */ }
    show();
  };
  const connect = () => {
    for (const button of document.querySelectorAll(".al-theme-toggle")) button.addEventListener("click", press);
    show();
  };
  if (system && system.addEventListener) system.addEventListener("change", show);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", connect);
  else connect();
})();

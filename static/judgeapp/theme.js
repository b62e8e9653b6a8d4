/* Applies the remembered colour theme before the page paints (no flash of the wrong theme). */
(function () {
  try {
    var theme = localStorage.getItem("judgeapp-theme");
    if (theme === "dark" || theme === "light") document.documentElement.setAttribute("data-theme", theme);
  } catch (e) { /* private mode: follow the system setting */ }
})();

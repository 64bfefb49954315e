// Paint the chosen theme before the app loads, so there is no flash of the wrong colours.
// A classic blocking script in <head>, served as a file: the Content-Security-Policy allows no
// inline script.
(function () {
  try {
    var theme = localStorage.getItem('versus:theme');
    if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
  } catch {
    document.documentElement.dataset.theme = 'dark';
  }
})();

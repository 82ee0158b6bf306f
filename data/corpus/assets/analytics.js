// page-view counter; the crawler must never execute this
(function () { var img = new Image(); img.src = '/assets/pixel.gif?p=' + encodeURIComponent(location.pathname); })();
function track() {}

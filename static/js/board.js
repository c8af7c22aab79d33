// The scoreboard's "scroll →" hint shows only while a player's column is out of sight: more than half
// of the narrowest one, not a few pixels of a board hardly wider than the phone. Checked again when
// the phone turns or the board is drawn anew (a tap, the read-only page's update). Without JavaScript
// the hint shows whenever the board has five players or more.
(function () {
  "use strict";
  const main = document.getElementById("main");
  if (!main || !window.ResizeObserver) return;
  let queued = false;

  function check() {
    queued = false;
    main.querySelectorAll(".board-scroll").forEach(box => {
      const hint = box.querySelector(".scroll-hint"), columns = box.querySelectorAll("thead th:not(.deal-col)");
      if (!hint || !columns.length) return;
      const narrowest = Math.min(...Array.from(columns, th => th.getBoundingClientRect().width));
      hint.hidden = box.scrollWidth - box.clientWidth <= narrowest / 2;
    });
  }
  function later() {
    if (!queued) requestAnimationFrame(check);
    queued = true;
  }
  new ResizeObserver(later).observe(main);
  new MutationObserver(later).observe(main, { childList: true, subtree: true });
  check();
})();

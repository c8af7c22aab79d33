// The board's "scroll →" hint shows only while a player's column is out of sight (more than half of
// the narrowest), not when the board is a few pixels wider than the phone; checked again as the
// phone turns or the board is drawn anew. Without JavaScript it shows from five players on.
(function () {
  "use strict";
  const main = document.getElementById("main");
  if (!main || !window.ResizeObserver) return;
  let asked = 0;
  const check = () => {
    asked = 0;
    for (const box of main.querySelectorAll(".board-scroll")) {
      const hint = box.querySelector(".scroll-hint"), th = box.querySelectorAll("thead th:not(.deal-col)");
      if (hint && th.length) hint.hidden = box.scrollWidth - box.clientWidth <= Math.min(...Array.from(th, c => c.offsetWidth)) / 2;
    }
  };
  const later = () => { asked = asked || requestAnimationFrame(check); };
  new ResizeObserver(later).observe(main);
  new MutationObserver(later).observe(main, { childList: true, subtree: true });
  check();
})();

// Written by the build after a page's inert script tags (pagescripts.py says why): once the page is parsed and its
// first paint shown, each is put back as a real script, in the order written, so they run as deferred scripts would.
{
  const start = () => {
    // The theme's bundle sets itself up on DOMContentLoaded, which has passed by now and will not come again in this
    // document (instant navigation keeps it). A listener added from here on is called once every script has run, as
    // the event came after deferred scripts (the widgets set up before the theme's start-up, as they did), or at
    // once after that.
    const listen = document.addEventListener;
    const waiting = [];
    let allRan = false;
    document.addEventListener = function (type, listener, options) {
      if (type !== "DOMContentLoaded") return listen.call(this, type, listener, options);
      const call = typeof listener === "function" ? listener : listener.handleEvent.bind(listener);
      if (allRan) setTimeout(() => call.call(document, new Event(type)));
      else waiting.push(call);
    };
    let script;
    const started = new Set();
    for (const held of document.querySelectorAll('script[type="layerwise/after-first-frame"]')) {
      started.add(held.src);
      script = document.createElement("script");
      if (held.hasAttribute("data-module")) script.type = "module";
      script.async = false;  // run in the order written, not as each arrives
      script.src = held.src;
      script.dataset.afterFirstFrame = "";
      held.replaceWith(script);
    }
    // Their preloads have done their work. Left in, the theme's bundle would write each relative href out in full
    // as it starts, and a classic script's preload, so changed, asks for its file again.
    for (const preload of document.querySelectorAll("link[rel=preload][as=script], link[rel=modulepreload]")) {
      if (started.has(preload.href)) preload.remove();
    }
    // Said once the last has run and the listeners above were called: what 'load' said before, as that event may now
    // come first (the head's script of a page opened mid-way waits for it, and so do the browser tests).
    const ran = () => {
      allRan = true;
      for (const call of waiting) call.call(document, new Event("DOMContentLoaded"));
      window.Layerwise = Object.assign(window.Layerwise || {}, { scriptsRan: true });
      dispatchEvent(new Event("layerwise:scripts-ran"));
    };
    if (!script) ran();  // a page with no script to start
    else for (const end of ["load", "error"]) script.addEventListener(end, ran, { once: true });
  };

  // The browser reports the first paint once it is shown. An animation frame comes earlier: when headless Chromium
  // held the first frame's display a second, scripts started on a frame ran in that second, and Lighthouse counted
  // them in the first paint. Where paints are not reported, the second frame starts after the first is drawn.
  const afterFirstPaint = () => {
    if (!PerformanceObserver.supportedEntryTypes?.includes("paint")) {
      requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start)));
      return;
    }
    new PerformanceObserver((entries, observer) => {
      observer.disconnect();
      start();
    }).observe({ type: "paint", buffered: true });
  };
  addEventListener("DOMContentLoaded", afterFirstPaint, { once: true });
}

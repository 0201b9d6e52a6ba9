// Layout checks for the browser tests (issue 28): Checks.layout in browser_test.py defines
// heartworkLayout() in the page and calls it at the window's current width. It returns
//   {viewport, pageOverflow, overflow, scrollers, overlaps, svgOverlaps, svgCut, smallText}
// overflow: visible elements whose box reaches past the viewport's left or right edge by more
//   than SLACK px and that are not inside a horizontally scrolling container; only the
//   outermost such element of a subtree is listed (its overflowing descendants are counted).
//   An element whose overflowing part is cut off by an ancestor's overflow: hidden/clip is
//   listed too (kind "cut off"): a person loses that part of it.
// scrollers: containers with overflow-x auto/scroll whose content is wider than they are
//   (allowed, but they need a visible cue; listed for review, not a failure).
// overlaps: pairs of visible text (the element's own non-blank text nodes, outside SVG, and the
//   boxes of form fields) whose line boxes intersect by more than OVERLAP px both ways, neither
//   element containing the other.
// svgOverlaps: the same for the <text> elements of one <svg> (chart labels crossing).
// svgCut: chart labels reaching past their <svg>'s edge (cut off there).
// smallText: text drawn smaller than MIN_FONT px (a chart scaled down to a phone, or CSS).
function heartworkLayout() {
  const SLACK = 1, OVERLAP = 4, MIN_FONT = 9;
  const root = document.documentElement;
  const vw = root.clientWidth;
  const styles = new Map();
  const style = (e) => { let s = styles.get(e); if (!s) { s = getComputedStyle(e); styles.set(e, s); } return s; };

  // Hidden on purpose: not rendered, transparent, clipped away, or the 1 × 1 px
  // visually-hidden pattern (text for screen readers only), here or on an ancestor.
  const hiddenMemo = new Map();
  function hiddenTree(e) {
    if (!e || e === root || e === document.body) return false;
    if (hiddenMemo.has(e)) return hiddenMemo.get(e);
    const s = style(e);
    let hidden = s.display === "none" || parseFloat(s.opacity) === 0
      || /^rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)$/.test(s.clip || "")
      || /inset\(50%\)/.test(s.clipPath || "");
    if (!hidden && s.overflow !== "visible") {
      const r = e.getBoundingClientRect();
      hidden = r.width <= 1 && r.height <= 1;
    }
    if (!hidden) hidden = hiddenTree(e.parentElement);
    hiddenMemo.set(e, hidden);
    return hidden;
  }
  function hidden(e) {
    const s = style(e);
    if (s.visibility !== "visible") return true;   // inherited: the element's own value decides
    if (e.getClientRects().length === 0) return true;
    // not rendered: display none, inside a closed <details> (content-visibility), transparent
    if (e.checkVisibility && !e.checkVisibility({contentVisibilityAuto: true, opacityProperty: true, visibilityProperty: true})) return true;
    return hiddenTree(e);
  }

  function describe(e) {
    const name = (x) => {
      let text = x.tagName.toLowerCase();
      if (x.id) text += "#" + x.id;
      const classes = typeof x.className === "string" ? x.className : (x.getAttribute("class") || "");
      for (const c of classes.split(/\s+/).filter(Boolean).slice(0, 3)) text += "." + c;
      return text;
    };
    const path = [];
    for (let a = e; a && a !== document.body && path.length < 5; a = a.parentElement) {
      path.unshift(name(a));
      if (a.id || a.tagName === "MAIN") break;
    }
    const r = e.getBoundingClientRect();
    const text = (e.textContent || e.getAttribute("aria-label") || "").replace(/\s+/g, " ").trim();
    return {element: name(e), path: path.join(" > "), text: text.length > 60 ? text.slice(0, 57) + "…" : text,
            rect: [Math.round(r.left), Math.round(r.top + scrollY), Math.round(r.width), Math.round(r.height)]};
  }

  // ---- overflow
  const offenders = new Map();
  const scrollers = new Map();
  for (const e of document.body.querySelectorAll("*")) {
    if (e.closest("svg") && e.tagName.toLowerCase() !== "svg") continue;   // the <svg> box stands for its drawing
    if (["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT"].includes(e.tagName)) continue;
    if (hidden(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    if (r.right <= vw + SLACK && r.left >= -SLACK) continue;
    if (r.right <= 0 && ["absolute", "fixed"].includes(style(e).position)) continue;   // a skip link parked off-screen
    let scroller = null, clipper = null;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = style(a);
      if (s.overflowX === "auto" || s.overflowX === "scroll") { scroller = a; break; }
      if (!clipper && (s.overflowX === "hidden" || s.overflowX === "clip")) clipper = a;
    }
    if (scroller) continue;   // scrolls inside its container: listed below with the scrollers
    offenders.set(e, {clipper});
  }
  const overflow = [];
  const nested = new Map();
  for (const [e, info] of offenders) {
    let top = null;
    for (let a = e.parentElement; a; a = a.parentElement) if (offenders.has(a)) top = a;
    if (top) { nested.set(top, (nested.get(top) || 0) + 1); continue; }
  }
  for (const [e, info] of offenders) {
    let inside = false;
    for (let a = e.parentElement; a; a = a.parentElement) if (offenders.has(a)) { inside = true; break; }
    if (inside) continue;
    const r = e.getBoundingClientRect();
    const item = describe(e);
    item.right = Math.round(r.right);
    item.left = Math.round(r.left);
    item.past = Math.round(Math.max(r.right - vw, -r.left));
    item.descendants = nested.get(e) || 0;
    if (info.clipper) {
      const c = info.clipper.getBoundingClientRect();
      if (c.right <= vw + SLACK && c.left >= -SLACK) { item.kind = "cut off"; item.clippedBy = describe(info.clipper).path; }
      else item.kind = "wider than the viewport";
    } else item.kind = "wider than the viewport";
    overflow.push(item);
  }
  for (const e of document.body.querySelectorAll("*")) {   // every container that scrolls sideways, wide or not
    const s = style(e);
    if ((s.overflowX === "auto" || s.overflowX === "scroll") && e.scrollWidth > e.clientWidth + SLACK && !hidden(e)) scrollers.set(e, e);
  }
  const scrollList = [...scrollers.values()].map((s) => {
    const item = describe(s);
    item.scrollWidth = s.scrollWidth;
    item.clientWidth = s.clientWidth;
    return item;
  });

  // ---- overlapping text
  function clipRect(e, r) {
    // the part of r left visible by e's clipping ancestors (and e itself, e.g. an ellipsis)
    let left = r.left, top = r.top, right = r.right, bottom = r.bottom;
    for (let a = e; a && a !== document.body && a !== root; a = a.parentElement) {
      const s = style(a);
      if (a.tagName.toLowerCase() === "svg" || s.overflowX !== "visible" || s.overflowY !== "visible") {
        const c = a.getBoundingClientRect();
        if (a.tagName.toLowerCase() === "svg" || s.overflowX !== "visible") { left = Math.max(left, c.left); right = Math.min(right, c.right); }
        if (a.tagName.toLowerCase() === "svg" || s.overflowY !== "visible") { top = Math.max(top, c.top); bottom = Math.min(bottom, c.bottom); }
      }
    }
    return right - left > 0.5 && bottom - top > 0.5 ? {left, top, right, bottom} : null;
  }
  function ownTextRects(e) {
    const rects = [];
    for (const n of e.childNodes) {
      if (n.nodeType !== Node.TEXT_NODE || !n.data.trim()) continue;
      const range = document.createRange();
      const start = n.data.search(/\S/);
      const end = n.data.length - n.data.match(/\s*$/)[0].length;
      range.setStart(n, start);
      range.setEnd(n, end);
      for (const r of range.getClientRects()) {
        if (r.width < 1 || r.height < 1) continue;
        const c = clipRect(e, r);
        if (c) rects.push(c);
      }
    }
    return rects;
  }
  function intersect(a, b) {
    const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return x > OVERLAP && y > OVERLAP ? [x, y] : null;
  }
  function pairs(items) {
    const found = [];
    items.sort((a, b) => a.top - b.top);
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length && items[j].top < items[i].bottom; j++) {
        const a = items[i], b = items[j];
        if (a.element === b.element || a.element.contains(b.element) || b.element.contains(a.element)) continue;
        const hit = intersect(a.rect, b.rect);
        if (hit) found.push([a, b, hit]);
      }
    }
    // one line per pair of elements, the largest intersection
    const best = new Map();
    for (const [a, b, hit] of found) {
      const key = [a.index, b.index].sort().join(":");
      const old = best.get(key);
      if (!old || hit[0] * hit[1] > old[2][0] * old[2][1]) best.set(key, [a, b, hit]);
    }
    return [...best.values()].map(([a, b, hit]) => ({
      a: describe(a.element), b: describe(b.element),
      aRect: [a.rect.left, a.rect.top + scrollY, a.rect.right - a.rect.left, a.rect.bottom - a.rect.top].map(Math.round),
      bRect: [b.rect.left, b.rect.top + scrollY, b.rect.right - b.rect.left, b.rect.bottom - b.rect.top].map(Math.round),
      by: hit.map(Math.round)}));
  }
  function fixed(e) {   // toasts float over the page on purpose
    for (let a = e; a && a !== document.body; a = a.parentElement) if (style(a).position === "fixed") return true;
    return false;
  }
  const texts = [];
  let index = 0;
  for (const e of document.body.querySelectorAll("*")) {
    if (e.closest("svg") || ["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "TITLE", "OPTION"].includes(e.tagName)) continue;
    if (![...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.data.trim())) continue;
    if (hidden(e) || fixed(e)) continue;
    index++;
    for (const rect of ownTextRects(e)) texts.push({element: e, rect, top: rect.top, bottom: rect.bottom, index});
  }
  // form controls show text too (a value, a placeholder, a choice): their boxes take part
  for (const e of document.body.querySelectorAll("input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, textarea")) {
    if (e.closest("svg") || hidden(e) || fixed(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    const c = clipRect(e.parentElement, r);
    if (!c) continue;
    index++;
    texts.push({element: e, rect: c, top: c.top, bottom: c.bottom, index});
  }
  const overlaps = pairs(texts);

  // ---- charts: labels crossing each other, cut off by the drawing's edge, or scaled too small
  const svgOverlaps = [], svgCut = [], smallText = [];
  for (const svg of document.querySelectorAll("svg")) {
    if (svg.parentElement && svg.parentElement.closest("svg")) continue;   // nested: part of the outer drawing
    if (hidden(svg)) continue;
    const box = svg.getBoundingClientRect();
    const clips = style(svg).overflow !== "visible";
    const labels = [];
    for (const t of svg.querySelectorAll("text")) {
      if (!t.textContent.trim() || t.closest("defs, title, desc, clipPath, mask, symbol") || hidden(t)) continue;
      const r = t.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      const m = t.getScreenCTM();
      const size = parseFloat(style(t).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
      if (size < MIN_FONT) smallText.push({...describe(t), size: Math.round(size * 10) / 10, svg: describe(svg).path});
      if (clips && (r.left < box.left - SLACK || r.right > box.right + SLACK || r.top < box.top - SLACK || r.bottom > box.bottom + SLACK)) {
        svgCut.push({...describe(t), svg: describe(svg).path, svgRect: describe(svg).rect});
      }
      const c = clips ? {left: Math.max(r.left, box.left), top: Math.max(r.top, box.top), right: Math.min(r.right, box.right), bottom: Math.min(r.bottom, box.bottom)}
                      : {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
      if (c.right - c.left < 0.5 || c.bottom - c.top < 0.5) continue;
      index++;
      labels.push({element: t, rect: c, top: c.top, bottom: c.bottom, index});
    }
    for (const found of pairs(labels)) {
      found.svg = describe(svg).path;
      svgOverlaps.push(found);
    }
  }
  for (const {element} of texts) {
    const size = parseFloat(style(element).fontSize);
    if (size < MIN_FONT && !smallText.some((x) => x.node === element)) smallText.push({...describe(element), size, node: element});
  }
  for (const x of smallText) delete x.node;
  return {viewport: vw, pageOverflow: root.scrollWidth - root.clientWidth, overflow, scrollers: scrollList, overlaps, svgOverlaps, svgCut, smallText};
}

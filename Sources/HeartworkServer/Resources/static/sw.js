// Heartwork's service worker (served at /sw.js, so its scope is the whole site). It keeps the
// app shell — the stylesheet, the scripts and the /gateway and /record pages — so those two
// pages open without a network; their scripts keep what they hear until the server is back.
// Pages and files: network first, the cached copy when the network fails. The API, the
// sockets and anything not in the shell are never cached.
const CACHE = "heartwork-shell-v3";
const PAGES = ["/gateway", "/record"];
const FILES = [
  "/static/app.css", "/static/app.js", "/static/common.js", "/static/strap.js",
  "/static/outbox.js", "/static/gateway.js", "/static/record.js", "/static/favicon.svg", "/static/icon-192.png", "/manifest.webmanifest",
];
const SHELL = new Set([...PAGES, ...FILES]);

self.addEventListener("install", (event) => {
  // One by one: a page that needs a sign-in (or does not exist yet) is skipped, not fatal;
  // it is cached at its first visit instead.
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all([...SHELL].map((url) => cache.add(url).catch(() => {}))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith("heartwork-") && name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !SHELL.has(url.pathname)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      // A page is kept only as the signed-in page it is (not a sign-in form or an error).
      if (response.ok && !response.redirected) await cache.put(url.pathname, response.clone());
      return response;
    } catch (error) {
      const cached = await cache.match(url.pathname);
      if (cached) return cached;
      throw error;
    }
  })());
});

// Web Push (settings → "Notifications on this device"): the server sends {title, body, link,
// tag}, encrypted for this browser; one notification per tag stays on screen (the newest).
self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch { message = { body: event.data ? event.data.text() : "" }; }
  const link = typeof message.link === "string" && message.link.startsWith("/") && !message.link.startsWith("//") ? message.link : "/notifications";
  event.waitUntil(self.registration.showNotification(message.title || "Heartwork", {
    body: message.body || "", tag: message.tag || "heartwork", data: { link },
    icon: "/static/icon-192.png", badge: "/static/icon-192.png",
  }));
});

// A tap on a notification opens its page: in a Heartwork tab already open if there is one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const link = (event.notification.data && event.notification.data.link) || "/notifications";
  const target = new URL(link, self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) {
      if (new URL(client.url).origin === self.location.origin && "focus" in client) {
        await client.focus();
        if ("navigate" in client) await client.navigate(target).catch(() => {});
        return;
      }
    }
    await self.clients.openWindow(target);
  })());
});

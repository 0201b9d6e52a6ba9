// Shared by every page's module: the CSRF token, the people's text of a problem answer, and
// one reconnecting WebSocket (one back-off for the feed, the notifications and the match).

export function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.content : "";
}

export async function problemText(response) {
  try {
    const problem = await response.json();
    // `message` is written for people; `detail` (older servers, scripts) is the technical account.
    return problem.message || (problem.field ? `${problem.detail} (${problem.field})` : problem.detail);
  } catch {
    return `the server answered ${response.status}`;
  }
}

// The socket at `path` on this server (ws: or wss: as the page), opened again after a drop
// with a pause that doubles from 1 s up to `maxDelay` ms and starts over once it is open.
// `onClose(delay)` hears each drop with the pause before the next try.
export function reconnectingSocket(path, { onOpen, onMessage, onClose, maxDelay = 30000 } = {}) {
  let delay = 1000;
  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + window.location.host + path);
    socket.addEventListener("open", () => { delay = 1000; if (onOpen) onOpen(socket); });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (onMessage) onMessage(message, socket);
    });
    socket.addEventListener("close", () => {
      if (onClose) onClose(delay);
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, maxDelay);
    });
  }
  connect();
}

// The service worker (/sw.js) that lets /gateway and /record open offline and makes the site
// installable as an app; every page registers it (a browser without one simply goes on).
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  // Signed out (the sign-in page after "Sign out", or a session that ended): the offline
  // copies of /gateway and /record are the last user's pages, so they go before anyone else
  // uses this device.
  if (!document.querySelector('meta[name="heartwork-user"]') && "caches" in window) {
    caches.keys().then((keys) => Promise.all(keys.filter((key) => key.startsWith("heartwork-shell"))
      .map((key) => caches.open(key).then((cache) => Promise.all(["/gateway", "/record"].map((page) => cache.delete(page)))))))
      .catch(() => {});
  }
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}

import { csrfToken, problemText } from "/static/common.js";

// "Notifications on this device" (settings): turns Web Push on or off for this browser.
// On: the service worker (/sw.js) subscribes with the server's VAPID key and the subscription
// goes to POST /api/push/subscriptions; Off: DELETE it and unsubscribe. What cannot work
// (no Push API, not a secure page, permission denied) is said in plain words.
function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((base64url.length + 3) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function send(method, body) {
  return fetch("/api/push/subscriptions", {
    method, credentials: "same-origin", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
  });
}

// Which account turned notifications on in this browser: another account signed in here
// later does not get them, and its visit does not take them over.
const OWNER = "heartwork-push-owner";
const me = document.querySelector('meta[name="heartwork-user"]')?.content || "";

async function start(panel) {
  const status = panel.querySelector("#push-status");
  const button = panel.querySelector("#push-toggle");
  const devices = panel.querySelector("#push-devices");
  const controls = panel.querySelector("#push-controls");
  const say = (text) => { status.textContent = text; };
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("This browser cannot receive push notifications. Your notifications still wait for you on the notifications page.");
    return;
  }
  if (!window.isSecureContext) {
    say("Push notifications need this site over HTTPS. Your notifications still wait for you on the notifications page.");
    return;
  }
  let registration;
  try {
    registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
  } catch {
    say("This browser would not start Heartwork's service worker, so it cannot receive push notifications.");
    return;
  }

  async function countDevices() {
    const response = await fetch("/api/push/subscriptions", { credentials: "same-origin" });
    if (!response.ok) return;
    const { subscriptions } = await response.json();
    devices.textContent = subscriptions.length === 0 ? "" :
      `Notifications are on for ${subscriptions.length} ${subscriptions.length === 1 ? "device" : "devices"} of yours.`;
    devices.hidden = subscriptions.length === 0;
  }

  async function show() {
    const subscription = await registration.pushManager.getSubscription();
    const on = subscription !== null && Notification.permission === "granted" && localStorage.getItem(OWNER) === me;
    button.textContent = on ? "Turn notifications off" : "Turn notifications on";
    button.dataset.on = on ? "true" : "false";
    controls.hidden = false;
    if (Notification.permission === "denied") {
      say("Notifications are blocked for this site in your browser's settings. Allow them there, then turn them on here.");
    } else {
      say(on ? "Notifications are on on this device." : "Notifications are off on this device.");
    }
    await countDevices();
    return subscription;
  }

  let subscription = await show();
  // This account's subscription is sent again: the server renews it and binds it to this
  // session (signing out ended the last one, and with it the pushes to this browser).
  if (subscription && Notification.permission === "granted" && localStorage.getItem(OWNER) === me) await send("POST", subscription.toJSON());

  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      subscription = await registration.pushManager.getSubscription();
      if (button.dataset.on === "true" && subscription) {
        const response = await send("DELETE", { endpoint: subscription.endpoint });
        if (!response.ok && response.status !== 404) { say(await problemText(response)); return; }
        await subscription.unsubscribe();
        localStorage.removeItem(OWNER);
      } else {
        const permission = await Notification.requestPermission();
        if (permission !== "granted") {
          say(permission === "denied"
            ? "Notifications are blocked for this site in your browser's settings. Allow them there, then turn them on here."
            : "Notifications stay off: the browser was not given permission.");
          return;
        }
        const keyResponse = await fetch("/api/push/key", { credentials: "same-origin" });
        if (!keyResponse.ok) { say(await problemText(keyResponse)); return; }
        const { publicKey } = await keyResponse.json();
        if (subscription) await subscription.unsubscribe();
        subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
        const response = await send("POST", subscription.toJSON());
        if (!response.ok) {
          const why = await problemText(response);
          await subscription.unsubscribe();
          say(`Notifications stay off: ${why}`);
          return;
        }
        localStorage.setItem(OWNER, me);
      }
      await show();
    } catch (error) {
      say(`Notifications could not be changed on this device: ${error.message || error}`);
    } finally {
      button.disabled = false;
    }
  });
}

const panel = document.getElementById("push");
if (panel) start(panel);

// Run in the extension's service worker (background.js) over CDP, as the Go tests' inline
// scripts (runJSInline): what the worker's notifications show, and the answer a click on one of
// their buttons gives. It imports nothing.

// recordNotifications keeps the options of each notification the worker creates from now on
// (self.notified), passing them on to chrome.notifications.create unchanged.
export function recordNotifications() {
  self.notified = [];
  const create = chrome.notifications.create.bind(chrome.notifications);
  chrome.notifications.create = (id, options) => {
    self.notified.push({ id, options });
    return create(id, options);
  };
  return true;
}

// shownNotification waits (up to 10 s) for a notification the browser shows (chrome.notifications.
// getAll) that the worker created after recordNotifications, and answers its id and options.
export async function shownNotification() {
  for (const t0 = Date.now(); Date.now() - t0 < 10000; await new Promise((r) => setTimeout(r, 50))) {
    const shown = await chrome.notifications.getAll();
    const n = self.notified.find((m) => shown[m.id]);
    if (n) return { id: n.id, title: n.options.title, message: n.options.message, context: n.options.contextMessage,
      buttons: (n.options.buttons || []).map((b) => b.title) };
  }
  return null;
}

// clickButton runs what a click on button (0: Run it, 1: Decline) of notification id runs, as a
// person does: again while the notification stays (a click just after a question appeared is not
// taken), for up to 5 s; it answers whether the browser still shows the notification afterwards.
export async function clickButton(id, button) {
  for (const t0 = Date.now(); Date.now() - t0 < 5000; ) {
    webmcpBridgeNotificationButton(id, button);
    await new Promise((r) => setTimeout(r, 200));
    if (!(id in (await chrome.notifications.getAll()))) return false;
  }
  return true;
}

// clickAsItAppears makes the next notification the worker creates get a click on button in the
// same moment it appears (a click meant for what was under the pointer before), and answers
// true; clickedAsItAppeared answers whether that happened and whether the notification stayed.
export function clickAsItAppears(button) {
  const create = chrome.notifications.create;
  self.clickedEarly = null;
  chrome.notifications.create = (id, options) => {
    chrome.notifications.create = create;
    const shown = create(id, options);
    webmcpBridgeNotificationButton(id, button);
    self.clickedEarly = { id };
    return shown;
  };
  return true;
}

export async function clickedAsItAppeared() {
  for (const t0 = Date.now(); !self.clickedEarly && Date.now() - t0 < 10000; ) await new Promise((r) => setTimeout(r, 50));
  if (!self.clickedEarly) return null;
  await new Promise((r) => setTimeout(r, 200));
  return { id: self.clickedEarly.id, still: self.clickedEarly.id in (await chrome.notifications.getAll()) };
}

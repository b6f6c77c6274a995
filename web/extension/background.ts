// Opens the side panel when the toolbar button is clicked.
/// <reference types="chrome" />
chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch((e: unknown) => console.error(e));

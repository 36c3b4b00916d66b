// Progressive enhancement for the settings console, nothing more: a "Copy" button beside a secret
// shown once (without JavaScript the secret is still selectable in its read-only field), and the
// secret selected when its field gets focus.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("button[data-copy-target]")) {
    const input = document.getElementById(button.dataset.copyTarget);
    if (!input) continue;
    const status = button.closest(".secret-once")?.querySelector(".copy-status");
    const say = (text) => {
      if (status) status.textContent = text;
    };
    input.addEventListener("focus", () => input.select());
    if (!navigator.clipboard || !window.isSecureContext) continue;
    button.hidden = false;
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(input.value);
        button.textContent = "Copied";
        say("Copied to the clipboard.");
        setTimeout(() => {
          button.textContent = "Copy";
        }, 2000);
      } catch {
        input.focus();
        input.select();
        say("Copying was not allowed: the secret is selected, press Ctrl+C (or ⌘C) to copy it.");
      }
    });
  }
});

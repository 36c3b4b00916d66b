// What a page says after an action redirected to it with `?notice=`.
export const NOTICES: Record<string, string> = {
  tested: "A test event was queued to this endpoint. Its delivery appears in the log below.",
  redelivered: "The event was queued again as a new delivery (shown at the top of the log).",
  updated: "The endpoint was updated.",
  enabled: "The endpoint was enabled: it receives the events it subscribes to again.",
  disabled: "The endpoint was disabled: no events are sent to it until it is enabled (test events still are).",
  deleted: "The endpoint was deleted, with its deliveries.",
};

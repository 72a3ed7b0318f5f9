// Live updates over fetch-based Server-Sent Events.  EventSource cannot send an
// Authorization header, so the stream is read with fetch and parsed here; after a drop
// it resumes with Last-Event-ID (docs/live-updates.md), so no event is missed or repeated.

function parseBlock(block) {
  const message = { id: null, event: "message", data: [], retry: null };
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") message.data.push(value);
    else if (field === "id") message.id = value;
    else if (field === "event") message.event = value;
    else if (field === "retry") message.retry = Number(value);
  }
  return message;
}

/**
 * Follow the encounter's stream from `afterVersion`, calling `onEvent(event)` with each
 * event as the caller's role may see it and `onStatus(text)` when the connection changes.
 * Returns a function that stops following.
 */
export function follow(api, afterVersion, onEvent, onStatus) {
  const controller = new AbortController();
  let lastId = afterVersion;
  let retryMs = 2000;

  async function once() {
    const headers = api.headers({ Accept: "text/event-stream" });
    if (lastId > 0) headers["Last-Event-ID"] = String(lastId);
    const response = await fetch(`/encounters/${api.encounterId}/live`, {
      headers,
      signal: controller.signal,
    });
    if (response.status === 401) {
      onStatus("token refused");
      return false;
    }
    if (!response.ok || !response.body) throw new Error(`live: HTTP ${response.status}`);
    onStatus("live");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return true;
      buffer += value.replace(/\r\n?/g, "\n");
      // What the stream cost, for the page's own measurements (tests/browser).
      document.body.dataset.liveChars = String(Number(document.body.dataset.liveChars || 0) + value.length);
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const message = parseBlock(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (message.retry) retryMs = message.retry;
        if (message.id != null) lastId = Number(message.id);
        if (message.data.length) onEvent(JSON.parse(message.data.join("\n")));
      }
    }
  }

  (async () => {
    while (!controller.signal.aborted) {
      try {
        if ((await once()) === false) return;
      } catch (error) {
        if (controller.signal.aborted) return;
      }
      onStatus("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  })();
  return () => controller.abort();
}

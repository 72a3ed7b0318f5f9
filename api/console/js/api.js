// The console's only way to the service: the public REST API, with the token as a bearer.
// Errors come back as RFC 9457 problem documents; they are raised as Problem so every
// caller can show the service's own words (a refused command names its rule).

export class Problem extends Error {
  constructor(status, doc) {
    super(doc.detail || doc.title || `HTTP ${status}`);
    this.status = status;
    this.doc = doc;
  }
}

export class Api {
  constructor(encounterId, token) {
    this.encounterId = encounterId;
    this.token = token;
  }

  headers(extra = {}) {
    const h = { Accept: "application/json", ...extra };
    if (this.token) h.Authorization = `Bearer ${this.token}`;
    return h;
  }

  async request(method, path, body, extra = {}) {
    const init = { method, headers: this.headers(extra) };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
    const response = await fetch(path, init);
    const text = await response.text();
    const doc = text ? JSON.parse(text) : null;
    if (!response.ok) throw new Problem(response.status, doc || {});
    return doc;
  }

  get(path) {
    return this.request("GET", path);
  }

  /** A path under this encounter, with ?at=N when looking at the past. */
  path(sub, at) {
    const base = `/encounters/${this.encounterId}${sub}`;
    return at == null ? base : `${base}${sub.includes("?") ? "&" : "?"}at=${at}`;
  }

  /** Every page of a paged list (log, rolls, events) after version `after`, in order. */
  async pages(sub, key, at, after = 0) {
    const out = [];
    for (;;) {
      const sep = sub.includes("?") ? "&" : "?";
      const page = await this.get(this.path(`${sub}${sep}after_version=${after}&limit=1000`, at));
      out.push(...page[key]);
      if (page.next_after_version == null) return out;
      after = page.next_after_version;
    }
  }

  /** A write under this encounter: Idempotency-Key makes a retried click append once. */
  write(sub, body) {
    return this.post(this.path(sub), body);
  }

  /** A write to any path (a campaign's), with its own Idempotency-Key. */
  post(path, body) {
    const key = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
    return this.request("POST", path, body, { "Idempotency-Key": key });
  }
}

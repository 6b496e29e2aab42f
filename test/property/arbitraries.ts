/**
 * fast-check generators of requests to one route: path parameters (the two accounts' ids, ids of
 * the wrong kind, malformed, unicode, very long, `..`, bad percent-escapes), query strings (known
 * parameters with wrong types and out-of-range numbers, arrays, duplicates, junk) and bodies
 * (objects of known fields with right and wrong types, any JSON, any bytes, wrong content types,
 * empty, deeply nested, huge numbers), sent with account B's key, with no or a bad key, or with
 * B's other credentials, live or dead (credentials.ts).
 */
import http from "node:http";
import fc from "fast-check";
import { type AccountFixture, actionCode, ECHO_SOURCE, emitterCode, type IdKind } from "./accounts.js";
import { type Credential, type Credentials, credentialArbitrary } from "./credentials.js";
import type { RawRequest } from "./raw-http.js";
import type { ParamKind, RouteSpec } from "./route-table.js";

/** The part of a JSON schema the generators read. */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
}

/** What the server's OpenAPI document says of one operation. */
export interface Operation {
  readonly parameters?: readonly { in: string; name: string; schema?: JsonSchema }[];
  readonly requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface World {
  readonly a: AccountFixture;
  readonly b: AccountFixture;
  /** A local receiver that answers 200 (webhooks and component URLs may point at it). */
  readonly receiver: string;
  readonly serverUrl: string;
  /** B's session and Connect tokens, live and dead. */
  readonly credentials: Credentials;
}

/** One generated request, with what the checks need to know about it. */
export interface GeneratedRequest extends RawRequest {
  /** A's `xx_…` ids placed in the path: such a request must not succeed. */
  readonly foreignIdsInPath: readonly string[];
  readonly auth: Credential["auth"];
  /** What authenticated it (B's key, a session cookie, a connect token…). */
  readonly credential: string;
  /** Sent with a connect token of B's second project: B's first project must stay out of reach. */
  readonly otherProject: boolean;
}

const PREFIXED = /^(wh|dc|sc|dlv|key|sub|u|proj|apn|ocl)_[0-9a-z]{26}$/;

/** Text with a history of breaking parsers and queries. */
const NASTY_TEXT = [
  "",
  " ",
  "0",
  "-1",
  "1.5",
  "1e309",
  "-0",
  "NaN",
  "Infinity",
  "null",
  "true",
  "undefined",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  ".",
  "..",
  "../../etc/passwd",
  "..\\..\\windows",
  "' or 1=1 --",
  '"; drop table sources; --',
  "%",
  "%00",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff\ud800",
  "é",
  "💩",
  "\u202e",
  "\uFEFF",
  "\r\n",
  "\t",
  "a".repeat(199),
  "a".repeat(200),
  "a".repeat(201),
  "b".repeat(401),
  "c".repeat(1001),
  "d".repeat(5000),
  "$default",
  "$errors",
  "1700000000000-0",
  "999999999999999-999999999",
  "9999999999999999-0",
  "1-",
  "-1-1",
  "0-0",
  "2026-02-30",
  "2026-11-21T00:00:00Z",
  "99999999999",
  "123456789012",
  "wh_",
  "dc_00000000000000000000000000",
  "sc_zzzzzzzzzzzzzzzzzzzzzzzzzz",
  "dlv_0000000000000000000000000u",
  "key@",
  "@1.0.0",
  "a@b@c",
  "k@",
  "x/y",
];

const nastyText = fc.constantFrom(...NASTY_TEXT);

const textWithNul = fc.string({ maxLength: 6 }).map((text) => `${text}\u0000${text}`);

/** Text that fits in a URL. */
const boundedText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: nastyText },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 24 }) },
  // PostgreSQL text cannot hold NUL: every path to a text column must cope.
  { weight: 2, arbitrary: textWithNul },
);

/** Text for bodies, up to a few hundred kilobytes. */
const anyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: boundedText },
  { weight: 1, arbitrary: fc.nat({ max: 300_000 }).map((length) => "z".repeat(length)) },
);

const hugeNumbers = [2 ** 31, 2 ** 31 - 1, 2 ** 53, -(2 ** 53), 2 ** 63, 1e21, 1e308, -1e308, 5e-324];

const anyInteger: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -5, max: 120 }),
  fc.integer(),
  fc.constantFrom(0, -0, -1, 100, 101, 1.5, 1e-7, ...hugeNumbers),
  fc.double(),
);

/** A value of the schema's type: right or, often, wrong. */
function valueOfSchema(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const types = [schema?.type ?? []].flat();
  const candidates: fc.Arbitrary<unknown>[] = [];
  if (schema?.enum) candidates.push(fc.constantFrom(...schema.enum));
  for (const type of types) {
    if (type === "string") candidates.push(anyText);
    if (type === "integer" || type === "number") candidates.push(anyInteger);
    if (type === "boolean") candidates.push(fc.boolean());
    if (type === "null") candidates.push(fc.constant(null));
    if (type === "object")
      candidates.push(fc.dictionary(anyText, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }));
    if (type === "array") candidates.push(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }));
  }
  if (candidates.length === 0) candidates.push(anyText, fc.jsonValue({ maxDepth: 2 }));
  return fc.oneof(...candidates);
}

function idsOf(world: World, kinds: readonly IdKind[]): string[] {
  return kinds.flatMap((kind) => [...world.a.ids[kind], ...world.b.ids[kind]]);
}

const ID_KINDS: readonly IdKind[] = [
  "webhook",
  "apiKey",
  "source",
  "delivery",
  "component",
  "published",
  "endpoint",
  "subscription",
  "workflow",
  "workflowRun",
  "app",
  "connectedAccount",
  "dataStore",
  "project",
  "endUserAccount",
  "trigger",
  "oauthClient",
];

/** Any id of either account, of any kind. */
function anyId(world: World): fc.Arbitrary<string> {
  return fc.constantFrom(...idsOf(world, ID_KINDS), world.a.accountId, world.b.accountId);
}

/** An id for a field that names a resource: B's mostly, A's often, any other now and then. */
function idField(world: World, kinds: readonly IdKind[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...kinds.flatMap((kind) => world.b.ids[kind])) },
    { weight: 2, arbitrary: fc.constantFrom(...kinds.flatMap((kind) => world.a.ids[kind])) },
    { weight: 1, arbitrary: anyId(world) },
    { weight: 1, arbitrary: anyText },
  );
}

function eventId(world: World): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...idsOf(world, ["event"]), "0-0"),
    fc.tuple(fc.nat(), fc.nat()).map(([ms, seq]) => `${ms}-${seq}`),
    fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.integer()).map(([ms, seq]) => `${ms}-${seq}`),
    anyText,
  );
}

/** Component code B may send: valid sources and actions (some publishable), broken code, junk. */
function componentCode(world: World): fc.Arbitrary<string> {
  const marker = world.b.markers[0] ?? "b";
  return fc.oneof(
    { weight: 6, arbitrary: templatedComponentCode(world) },
    fc.constantFrom(
      emitterCode(marker),
      ECHO_SOURCE,
      "export default {}",
      "export default { name: 'x', async run() { throw new Error('boom') } }",
      "export default { name: 'x', type: 'action', async run() { return 1 } }",
      "export default { name: 'x', props: { p: { type: 'nope' } }, async run() {} }",
      "export default { name: 'x', props: { t: { type: '$.interface.timer' } }, async run() {} }",
      "module.exports = 5",
      "syntax error {",
      // Metadata and output with NUL (a JS escape: no NUL in the request itself).
      "export default { name: 'n\\u0000', key: 'k\\u0000', version: '1\\u0000', description: '\\u0000', async run() {} }",
      "export default { name: 'x', type: 'action', async run({ $ }) { console.log('\\u0000'); $.export('$summary', '\\u0000'); return '\\u0000' } }",
      "export default { name: 'x', async run() { console.log('\\u0000'); this.$emit({ a: '\\u0000' }, { name: '\\u0000', summary: '\\u0000' }) } }",
      "import x from './local.js'; export default x",
      "",
      "   ",
    ),
    fc
      .tuple(
        fc.constantFrom(`${marker}-fuzz`, `${marker}-act`, "has space", "a/b", "@x", "", "a".repeat(250)),
        fc.constantFrom("0.0.1", "0.0.2", "1.0.0", "", "1 0", "x@y", "v".repeat(150)),
      )
      .map(([key, version]) => actionCode(key, version)),
    anyText,
  );
}

/**
 * Valid-looking components with one declared field given a random value (a name with NUL, a
 * version of 5,000 characters, a key that is a number…): what the describe step and the
 * component's own columns must survive.
 */
function templatedComponentCode(world: World): fc.Arbitrary<string> {
  const marker = world.b.markers[0] ?? "b";
  return fc
    .record({
      type: fc.constantFrom("source", "action"),
      field: fc.constantFrom("name", "key", "version", "description", "dedupe", "type", "props"),
      value: fc.oneof(
        { weight: 2, arbitrary: textWithNul.map((text) => JSON.stringify(text)) },
        { weight: 2, arbitrary: boundedText.map((text) => JSON.stringify(text)) },
        {
          weight: 1,
          arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value) ?? "null"),
        },
      ),
    })
    .map(
      ({ type, field, value }) =>
        `export default { name: "templated", key: "${marker}-t", version: "0.0.1", type: "${type}", ${field}: ${value}, async run() { return 1; } };`,
    );
}

function urlText(world: World): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      `${world.receiver}/fuzz`,
      `${world.serverUrl}/v1/openapi.json`,
      `${world.serverUrl}/health`,
      "http://127.0.0.1:1/closed",
      "http://[::1]:1/x",
      "http://169.254.169.254/latest/meta-data",
      "https://example.invalid/component.mjs",
      "ftp://example.com/x",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "data:text/javascript,export default {}",
      "http://",
      "http://a b/",
      "http://user:pass@127.0.0.1:1/",
      `http://${"a".repeat(2100)}.com/`,
      `https://example.com/${"p".repeat(2100)}`,
    ),
    anyText,
  );
}

/** Values for a known parameter: by what its name means, else by its schema type. */
function fieldValue(name: string, schema: JsonSchema | undefined, world: World): fc.Arbitrary<unknown> {
  let meaningful: fc.Arbitrary<unknown>;
  switch (name) {
    case "limit":
    case "rate_limit":
    case "timeout_seconds":
    case "max_events":
    case "n":
      meaningful = anyInteger;
      break;
    case "after":
    case "before":
    case "start_id":
    case "end_id":
      meaningful = fc.oneof(eventId(world), anyId(world));
      break;
    case "since":
      meaningful = fc.oneof(
        fc.integer({ min: -1, max: 99_999_999_999 }).map(String),
        fc.date().map((date) => (Number.isNaN(date.getTime()) ? "" : date.toISOString())),
        fc.constantFrom("2026-02-30", "2026-13-01T00:00:00Z", "2026-01-01T25:61:00", "1e10", "0", "-5"),
        anyText,
      );
      break;
    case "url":
    case "component_url":
      meaningful = urlText(world);
      break;
    case "component_code":
      meaningful = componentCode(world);
      break;
    case "filename":
      meaningful = fc.oneof(
        fc.constantFrom("a.ts", "a.mjs", "a.tsx", "../../x.ts", "/etc/passwd", ".ts"),
        anyText,
      );
      break;
    case "configured_props":
    case "steps":
      meaningful = fc.oneof(
        fc.dictionary(
          fc.constantFrom(
            "label",
            "token",
            "http",
            "db",
            "greeting",
            "o",
            "a",
            "p",
            "__proto__",
            "constructor",
          ),
          fc.oneof(anyText, fc.jsonValue({ maxDepth: 3 }), deepValue),
          { maxKeys: 4 },
        ),
        fc.jsonValue({ maxDepth: 3 }),
        deepValue,
      );
      break;
    case "component_id":
      meaningful = idField(world, ["component"]);
      break;
    case "emitter_id":
      meaningful = idField(world, ["source", "workflow"]);
      break;
    case "listener_id":
      meaningful = idField(world, ["webhook"]);
      break;
    case "id":
    case "key":
      meaningful = idField(world, ["component", "published"]);
      break;
    case "active":
      meaningful = fc.constantFrom(true, false, "true", "false", "yes", 1, 0, null, "");
      break;
    case "external_user_id":
      meaningful = idField(world, ["externalUser"]);
      break;
    case "connect_token":
      meaningful = idField(world, ["connectToken"]);
      break;
    case "client_id":
      meaningful = idField(world, ["oauthClient"]);
      break;
    case "app_slug":
      meaningful = idField(world, ["app"]);
      break;
    case "webhook_url":
      meaningful = urlText(world);
      break;
    default:
      meaningful = valueOfSchema(schema);
  }
  return fc.oneof(
    { weight: 8, arbitrary: meaningful },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: deepValue },
  );
}

/** A path segment as sent: encoded text, or raw bytes no client would send. */
function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate: send the bytes UTF-8 would have given it, which no decoder accepts.
    return "%ED%A0%80";
  }
}

const MALFORMED_SEGMENTS = [
  "",
  ".",
  "..",
  "%2e%2e",
  "..%2F..%2Fetc%2Fpasswd",
  "%2F",
  "%00",
  "%ZZ",
  "%",
  "%E0%A4%A",
  "%C0%AF",
  "%ED%A0%80",
  "%FF%FE",
  "\u00e9\u00ff",
  ";",
  "a;b=c",
  "*",
  "~",
  "'",
  "%27%20or%201%3D1",
];

interface PathValue {
  readonly raw: string;
  readonly foreign?: string;
}

function pathParam(kind: ParamKind, world: World): fc.Arbitrary<PathValue> {
  const malformed: fc.Arbitrary<PathValue> = fc
    .oneof(
      fc.constantFrom(...MALFORMED_SEGMENTS),
      boundedText.map(encodeSegment),
      fc
        .tuple(
          fc.constantFrom("wh", "dc", "sc", "dlv", "key", "sub", "u", "xx"),
          fc.string({ unit: fc.constantFrom(..."0123456789abcdefghjkmnpqrstvwxyzILOU"), maxLength: 27 }),
        )
        .map(([prefix, rest]) => `${prefix}_${rest}`),
      fc.constantFrom(199, 200, 201, 300, 999, 1000, 1001, 4000).map((length) => "i".repeat(length)),
      fc.stringMatching(/^[0-9a-f]{32}$/),
    )
    .map((raw) => ({ raw }));
  if (kind === "subpath") {
    return fc
      .array(fc.oneof(fc.constantFrom(...MALFORMED_SEGMENTS), boundedText.map(encodeSegment)), {
        maxLength: 4,
      })
      .map((segments) => ({ raw: segments.join("/") }));
  }
  // Source endpoints are public by design: anyone may post to A's. B's and unknown ones only.
  const own = fc.constantFrom(...world.b.ids[kind]).map((id) => ({ raw: encodeSegment(id) }));
  if (kind === "endpoint")
    return fc.oneof({ weight: 3, arbitrary: own }, { weight: 2, arbitrary: malformed });
  const foreign = fc
    .constantFrom(...world.a.ids[kind])
    .map((id) => ({ raw: encodeSegment(id), ...(PREFIXED.test(id) ? { foreign: id } : {}) }));
  const wrongKind = anyId(world).map((id) => ({ raw: encodeSegment(id) }));
  return fc.oneof(
    { weight: 3, arbitrary: own },
    { weight: 3, arbitrary: foreign },
    { weight: 1, arbitrary: wrongKind },
    { weight: 3, arbitrary: malformed },
  );
}

/** How a value travels in a query string: plain, as an array, as JSON, or mangled. */
function queryValue(value: unknown): fc.Arbitrary<string[]> {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  const encoded = encodeSegment(text);
  return fc.constantFrom(
    [encoded],
    [encoded],
    [encoded, encoded],
    [
      text
        .replaceAll("&", "%26")
        .replaceAll("#", "%23")
        .replace(/[^\u0021-\u00ff]/g, "%ZZ"),
    ],
    ["%", "%ZZ"],
  );
}

function queryString(names: readonly string[], value: (name: string) => fc.Arbitrary<unknown>) {
  const junkNames = fc.constantFrom(
    "a",
    "",
    "__proto__",
    "constructor",
    "%ZZ",
    "x".repeat(300),
    "[]",
    "a[b]",
  );
  const name =
    names.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, junkNames) : junkNames;
  const pair = name.chain((key) =>
    fc.tuple(
      fc.constantFrom(
        encodeSegment(key),
        `${encodeSegment(key)}[]`,
        `${encodeSegment(key)}[0]`,
        encodeSegment(key),
      ),
      value(key).chain(queryValue),
      fc.constantFrom("=", "=", "=", ""),
    ),
  );
  return fc.array(pair, { maxLength: 6 }).map((pairs) =>
    pairs
      .flatMap(([key, values, equals]) => values.map((item) => (equals ? `${key}=${item}` : key)))
      .join("&")
      // The request head stays under Node's 16 KB limit (one test sends a longer one on purpose).
      .slice(0, 8000),
  );
}

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=latin1",
  "APPLICATION/JSON",
  "application/json, text/plain",
  "application/vnd.api+json",
  "text/plain",
  "text/event-stream",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
  "",
  "garbage",
  "application/json; boundary=",
];

interface Body {
  readonly bytes?: Buffer;
  readonly contentType?: string;
}

function nested(depth: number, kind: "array" | "object"): string {
  return kind === "array"
    ? `${"[".repeat(depth)}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/**
 * A value nested `depth` levels deep. JSON.stringify would overflow on the value itself, so it
 * stands in as a placeholder that `safeJson` writes out as text.
 */
class DeepValue {
  constructor(
    readonly depth: number,
    readonly kind: "array" | "object",
  ) {}
  toJSON(): string {
    return `\u0001deep:${this.depth}:${this.kind}\u0001`;
  }
}

const deepValue = fc
  .tuple(
    fc.constantFrom(100, 600, 3000, 10_000, 100_000),
    fc.constantFrom("array" as const, "object" as const),
  )
  .map(([depth, kind]) => new DeepValue(depth, kind));

function safeJson(value: unknown): string {
  try {
    const text = JSON.stringify(value) ?? "null";
    return text.replace(
      /"\\u0001deep:(\d+):(array|object)\\u0001"/g,
      (_, depth: string, kind: "array" | "object") => nested(Number(depth), kind),
    );
  } catch {
    return "{}";
  }
}

/**
 * A valid request's parameters with up to two fields given random values and maybe one left out:
 * requests that get past the first checks and test the ones behind them.
 */
function nearlyValid(
  skeleton: Readonly<Record<string, unknown>>,
  names: readonly string[],
  value: (name: string) => fc.Arbitrary<unknown>,
): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.keys(skeleton);
  const changes = fc
    .subarray([...names], { minLength: Math.min(1, names.length), maxLength: Math.min(2, names.length) })
    .chain((chosen) => fc.tuple(...chosen.map((name) => value(name).map((v) => [name, v] as const))));
  // Inside an object-valued field (configured_props, steps): one member changed or added.
  const members = fields.flatMap((field) => {
    const inner = skeleton[field];
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return [];
    return [...Object.keys(inner), "zz"].map((member) => [field, member] as const);
  });
  const memberChange =
    members.length === 0
      ? fc.constant(undefined)
      : fc.option(
          fc.tuple(
            fc.constantFrom(...members),
            fc.oneof(
              anyText,
              anyInteger,
              fc.jsonValue({ maxDepth: 3 }),
              deepValue,
              // The text form the CLI sends for object and array props.
              deepValue.map((deep) => nested(deep.depth, deep.kind)),
            ),
          ),
          { nil: undefined },
        );
  const dropped = fc.option(fields.length > 0 ? fc.constantFrom(...fields) : fc.constant(undefined), {
    nil: undefined,
    freq: 4,
  });
  return fc
    .tuple(fc.option(changes, { nil: undefined }), memberChange, dropped)
    .map(([changed, member, drop]) => {
      const params: Record<string, unknown> = { ...skeleton };
      if (drop !== undefined) delete params[drop];
      if (member !== undefined) {
        const [[field, name], v] = member;
        params[field] = { ...(params[field] as Record<string, unknown>), [name]: v };
      }
      for (const [name, v] of changed ?? []) params[name] = v;
      return params;
    });
}

function asQuery(params: Record<string, unknown>): string {
  return Object.entries(params)
    .map(([name, v]) => `${encodeSegment(name)}=${encodeSegment(typeof v === "string" ? v : safeJson(v))}`)
    .join("&")
    .slice(0, 8000);
}

function body(
  names: readonly string[],
  value: (name: string) => fc.Arbitrary<unknown>,
  params: fc.Arbitrary<Record<string, unknown>>,
): fc.Arbitrary<Body> {
  const json = (text: fc.Arbitrary<string>) =>
    fc
      .tuple(
        text,
        fc.oneof(
          { weight: 5, arbitrary: fc.constant("application/json") },
          fc.constantFrom(...CONTENT_TYPES),
        ),
      )
      .map(([text, contentType]) => ({ bytes: Buffer.from(text), contentType }));
  const knownObject = fc
    .tuple(
      fc
        .subarray([...names])
        .chain((chosen) => fc.tuple(...chosen.map((name) => value(name).map((v) => [name, v] as const)))),
      fc.dictionary(anyText, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    )
    .map(([known, junk]) => safeJson({ ...junk, ...Object.fromEntries(known) }));
  return fc.oneof(
    { weight: 6, arbitrary: json(params.map(safeJson)) },
    { weight: 3, arbitrary: json(knownObject) },
    { weight: 2, arbitrary: json(fc.jsonValue().map(safeJson)) },
    { weight: 1, arbitrary: json(fc.anything().map(safeJson)) },
    {
      weight: 1,
      arbitrary: json(
        fc.constantFrom(
          "",
          " ",
          "{",
          "nul",
          '{"a":1,}',
          "\uFEFF{}",
          '{"a":1}{"b":2}',
          '{"__proto__":{"polluted":true}}',
          '{"constructor":{"prototype":{"polluted":true}}}',
          '{"limit":1e400,"rate_limit":123456789012345678901234567890,"timeout_seconds":-0}',
          '{"since":1e400,"n":-1e400}',
          `{"name":"${"\\u0000"}"}`,
          '"\\ud800"',
          `{"url":"\\ud800","name":"\\udfff"}`,
        ),
      ),
    },
    {
      weight: 1,
      arbitrary: json(
        fc
          .tuple(
            fc.constantFrom(100, 1000, 10_000, 100_000, 400_000),
            fc.constantFrom("array" as const, "object" as const),
            // At the top, or as the value of a known field.
            fc.option(names.length > 0 ? fc.constantFrom(...names) : fc.constant("a"), { nil: undefined }),
          )
          .map(([depth, kind, field]) =>
            field === undefined ? nested(depth, kind) : `{${JSON.stringify(field)}:${nested(depth, kind)}}`,
          ),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.uint8Array({ maxLength: 64 }),
          fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined }),
        )
        .map(([bytes, contentType]) => ({ bytes: Buffer.from(bytes), contentType })),
    },
    { weight: 1, arbitrary: fc.constantFrom<Body>({}, { contentType: "application/json" }) },
  );
}

const SAFE_METHODS = http.METHODS.filter((method) => method !== "CONNECT");

/** Requests to one route: its methods mostly, now and then one it does not have. */
export function requestArbitrary(
  url: string,
  methods: readonly string[],
  spec: RouteSpec,
  operations: Readonly<Record<string, Operation>>,
  world: World,
): fc.Arbitrary<GeneratedRequest> {
  const known = new Map<string, JsonSchema | undefined>();
  for (const operation of Object.values(operations)) {
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in === "query") known.set(parameter.name, parameter.schema);
    }
    const properties = operation.requestBody?.content?.["application/json"]?.schema?.properties ?? {};
    for (const [name, schema] of Object.entries(properties)) known.set(name, schema);
  }
  const skeleton = spec.valid?.(world) ?? {};
  for (const name of Object.keys(skeleton)) if (!known.has(name)) known.set(name, undefined);
  const names = [...known.keys()];
  const value = (name: string) => fieldValue(name, known.get(name), world);
  const params = nearlyValid(skeleton, names, value);

  const pathParams = Object.entries(spec.params ?? {});
  const pathValues = fc.tuple(...pathParams.map(([, kind]) => pathParam(kind, world)));
  const headers = fc.tuple(
    ...(spec.headers ?? []).map((name) =>
      fc.option(
        eventId(world).map((text) => [name, text.replace(/[^\u0020-\u007e]/g, "?")] as const),
        { nil: undefined },
      ),
    ),
  );
  const key = (auth: Credential["auth"], label: string, header?: string) => (): Credential => ({
    label,
    auth,
    headers: header === undefined ? {} : { authorization: header },
    otherProject: false,
  });
  const auth: fc.Arbitrary<(method: string) => Credential> = fc.oneof(
    { weight: 8, arbitrary: fc.constant(key("b", "key", `Bearer ${world.b.apiKey}`)) },
    { weight: 1, arbitrary: fc.constant(key("none", "none")) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          "Bearer sk_nope",
          "Bearer ",
          "Basic Zm9vOmJhcg==",
          `Bearer ${world.b.apiKey} extra`,
          "sk_x",
          `Bearer ${"k".repeat(5000)}`,
        )
        .map((header) => key("invalid", "bad key", header)),
    },
    {
      weight: 2,
      arbitrary: credentialArbitrary(
        url,
        world.b.apiKey,
        world.credentials,
        world.b.ids.connectToken[0] ?? "",
        world.a.ids.connectToken[0] ?? "",
      ),
    },
  );
  const method = fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...methods) },
    { weight: 1, arbitrary: fc.constantFrom(...SAFE_METHODS) },
  );
  return fc
    .record({
      method,
      pathValues,
      query: fc.option(fc.oneof(queryString(names, value), params.map(asQuery)), { nil: undefined, freq: 3 }),
      body: body(names, value, params),
      auth,
      headers,
    })
    .map(({ method, pathValues, query, body, auth, headers }) => {
      let path = url;
      pathParams.forEach(([name], index) => {
        const raw = pathValues[index]?.raw ?? "";
        path = name === "*" ? path.replace(/\*$/, raw) : path.replace(`:${name}`, raw);
      });
      const credential = auth(method);
      const requestHeaders: Record<string, string> = { ...credential.headers };
      for (const header of headers) if (header) requestHeaders[header[0]] = header[1];
      const sendsBody = method !== "HEAD" && body.bytes !== undefined;
      if (body.contentType !== undefined && body.contentType !== "")
        requestHeaders["content-type"] = body.contentType;
      const request = {
        method,
        path: query === undefined ? path : `${path}?${query}`,
        headers: requestHeaders,
        ...(sendsBody ? { body: body.bytes } : {}),
        foreignIdsInPath: pathValues.flatMap((value) => (value.foreign ? [value.foreign] : [])),
        auth: credential.auth,
        credential: credential.label,
        otherProject: credential.otherProject,
      };
      return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
    });
}

/** A request in a line or two, for failure messages: long paths and bodies are cut. */
export function describeRequest(request: GeneratedRequest): string {
  const cut = (text: string, length: number) =>
    text.length > length ? `${text.slice(0, length)}…(${text.length} chars)` : text;
  const body = request.body ? ` body: ${JSON.stringify(cut(request.body.toString("utf8"), 300))}` : "";
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${cut(value, 60)}`);
  return `${request.method} ${cut(request.path, 300)} [auth ${request.auth}: ${request.credential}] {${headers.join("; ")}}${body}`;
}

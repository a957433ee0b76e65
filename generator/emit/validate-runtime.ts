// The validator interpreter. `emitValidate` copies these declarations (as ts-morph structures)
// into every generated `validate.ts`, then appends the per-version table; so this file must stay
// self-contained: no imports, nothing that needs the generator at run time.
//
// Why an interpreter over a compact table rather than one function per schema node: the table
// is a fraction of the size of unrolled code (the bundle budget is a few KB gzip), and the
// decoded node graph links `$ref`s directly, so recursion (`JSONValue`) is plain calls.

export interface ValidationIssue {
  /** RFC 6901 pointer into the value that was checked. */
  readonly pointer: string;
  readonly expected: string;
  readonly got: string;
}

export type ValidationResult = { readonly ok: true } | { readonly ok: false; readonly errors: readonly ValidationIssue[] };

/** -32600: not a valid JSON-RPC message; -32601: unknown method; -32602: bad params. */
export type MessageValidationResult =
  | { readonly ok: true; readonly kind: "request" | "notification" | "result" | "error" }
  | { readonly ok: false; readonly code: -32600 | -32601 | -32602; readonly errors: readonly ValidationIssue[] };

/** At most this many issues are reported; nesting deeper than `maxDepth` is an issue, never a stack overflow. */
export const VALIDATION_LIMITS = Object.freeze({ maxErrors: 20, maxDepth: 256 });

/** One schema node as the emitter writes it: short keys, `$ref`s as table indices. */
interface WireNode {
  /** Type bit mask (see `bit`); absent: any type. */
  readonly t?: number;
  readonly c?: unknown;
  readonly e?: readonly unknown[];
  /** Property name, node index; required properties store `~index`. */
  readonly p?: readonly (string | number)[];
  readonly a?: number;
  readonly i?: number;
  readonly u?: readonly number[];
  readonly o?: readonly number[];
  readonly l?: readonly number[];
  /** Discriminator: the property whose `const` tells the `anyOf`/`oneOf` members apart. */
  readonly d?: string;
  readonly f?: string;
  readonly n?: number;
  readonly x?: number;
  readonly ni?: number;
  readonly xi?: number;
  readonly nl?: number;
  readonly xl?: number;
  readonly r?: string;
}

/** A number entry is an alias: the definition is exactly the (non-alias) one at that index. */
type WireEntry = WireNode | number;

/** Method name, kind (0 request, 1 notification, 2 input), params index or -1, params required, result indices. */
type WireMethod = readonly [string, number, number, number, ...number[]];

interface WireTable {
  readonly version: string;
  /** Definition names, comma-separated; definition `i` is entry `i`. */
  readonly names: string;
  readonly nodes: readonly WireEntry[];
  readonly methods: readonly WireMethod[];
  /** The generic `result` and `error` members of a response envelope. */
  readonly result: number;
  readonly error: number;
}

interface Node {
  /** Definition name, for messages. */
  nm: string;
  /** True when nothing is constrained: accepted without looking. */
  any: boolean;
  /** True when only the JSON type is constrained: parents check it inline, without a call. */
  leaf: boolean;
  t: number;
  /** `undefined` when there is no const: JSON has no undefined value. */
  c: unknown;
  e: readonly unknown[] | null;
  p: string[] | null;
  q: Node[];
  r: boolean[];
  a: Node | null;
  i: Node | null;
  u: Node[] | null;
  o: Node[] | null;
  l: Node[] | null;
  dk: string;
  dm: Map<unknown, Node> | null;
  /** Format name, "" for none. */
  fn: string;
  n: number;
  x: number;
  ni: number;
  xi: number;
  nl: number;
  xl: number;
  re: RegExp | null;
}

interface MethodEntry {
  readonly kind: number;
  readonly params: Node | null;
  readonly required: boolean;
  readonly results: readonly Node[];
}

interface Tables {
  readonly version: string;
  readonly index: ReadonlyMap<string, number>;
  readonly nodes: readonly Node[];
  readonly methods: ReadonlyMap<string, MethodEntry>;
  readonly result: Node;
  readonly error: Node;
}

type Rec = Record<string, unknown>;

const NULL = 1,
  BOOL = 2,
  OBJ = 4,
  ARR = 8,
  NUM = 16,
  INT = 32,
  STR = 64,
  ALL = 127;
/** Indexed by bit position. */
const TYPE_NAMES = ["null", "boolean", "object", "array", "number", "integer", "string"];
/** Wire keys copied to the node as they are. */
const SCALARS = ["t", "n", "x", "ni", "xi", "nl", "xl"] as const;

/**
 * ajv-formats' checks, so these validators agree with Ajv on the official schema. `uri` is its
 * "fast" mode (scheme, then no whitespace): the "full" RFC 3986 regex costs ~0.5 KB gzip and
 * rejects the non-ASCII paths real servers send.
 */
const URI_RE = /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/)?[^\s]*$/i;
const URI_TEMPLATE_RE =
  /^(?:(?:[^\x00-\x20"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i;
/** ajv-formats' byte regex is multiline; kept as is, so a value with a valid base64 line passes in both. */
const BYTE_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/m;

const FORMATS: ReadonlyMap<string, (s: string) => boolean> = new Map([
  ["uri", (s: string) => URI_RE.test(s)],
  ["uri-template", (s: string) => URI_TEMPLATE_RE.test(s)],
  ["byte", (s: string) => BYTE_RE.test(s)],
]);

/** Thrown past every frame when input nests deeper than the limit; caught at the entry points. */
const TOO_DEEP = { tooDeep: true };

/** Issues of the check in progress, innermost pointer segment first until `prefix` completes them. */
let issues: ValidationIssue[] = [];
/** > 0 while trying union members: failures then cost no strings. */
let quiet = 0;

function own(x: object, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(x, k);
}

function bit(x: unknown): number {
  switch (typeof x) {
    case "string":
      return STR;
    case "number":
      return Number.isInteger(x) ? NUM | INT : NUM;
    case "boolean":
      return BOOL;
    case "object":
      return x === null ? NULL : Array.isArray(x) ? ARR : OBJ;
    default:
      return 0;
  }
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let j = 0; j < a.length; j++) if (!equal(a[j], b[j])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!own(b, k) || !equal((a as Rec)[k], (b as Rec)[k])) return false;
  return true;
}

function describeValue(x: unknown): string {
  if (x === undefined) return "missing";
  if (typeof x === "string") return JSON.stringify(x.length > 40 ? x.slice(0, 40) + "…" : x);
  if (Array.isArray(x)) return `array(${x.length})`;
  return x === null ? "null" : typeof x === "object" ? "object" : String(x);
}

function describeNode(n: Node): string {
  if (n.nm !== "") return n.nm;
  if (n.c !== undefined) return JSON.stringify(n.c);
  if (n.e !== null) return n.e.map((v) => JSON.stringify(v)).join(" | ");
  const members = n.u ?? n.o;
  if (members !== null) return members.map((m) => (m.nm !== "" ? m.nm : typeNames(m.t))).join(" | ");
  return typeNames(n.t);
}

function typeNames(t: number): string {
  if (t === ALL) return "any value";
  if (t === 0) return "nothing (no further keys allowed)";
  // "integer" is implied by "number": name only the wider one.
  return TYPE_NAMES.filter((_, j) => t & (1 << j) && !(1 << j === INT && t & NUM)).join(" | ");
}

function escapeToken(k: string): string {
  return k.replace(/~/g, "~0").replace(/\//g, "~1");
}

function report(pointer: string, expected: string, got: string): false {
  if (issues.length < VALIDATION_LIMITS.maxErrors) issues.push({ pointer, expected, got });
  return false;
}

/** Issues from `from` on were found inside `key`: put it in front of their pointers. */
function prefix(from: number, key: string): void {
  const seg = "/" + escapeToken(key);
  for (let j = from; j < issues.length; j++) {
    const issue = issues[j]!;
    issues[j] = { pointer: seg + issue.pointer, expected: issue.expected, got: issue.got };
  }
}

function check(n: Node, x: unknown, d: number): boolean {
  if (n.any) return true;
  if (d > VALIDATION_LIMITS.maxDepth) throw TOO_DEEP;
  const b = bit(x);
  if ((n.t & b) === 0 || (n.c !== undefined && !equal(n.c, x)) || (n.e !== null && !inEnum(n.e, x))) {
    return quiet > 0 ? false : report("", describeNode(n), describeValue(x));
  }
  let ok = true;
  if (b === OBJ) {
    if (n.p !== null || n.a !== null) ok = checkObject(n, x as Rec, d);
  } else if (b === ARR) {
    ok = checkArray(n, x as unknown[], d);
  } else if (b === STR) {
    ok = checkString(n, x as string);
  } else if (b & NUM) {
    if ((x as number) < n.n) ok = quiet > 0 ? false : report("", `a number >= ${n.n}`, String(x));
    else if ((x as number) > n.x) ok = quiet > 0 ? false : report("", `a number <= ${n.x}`, String(x));
  }
  if (!ok && quiet > 0) return false;
  if (n.l !== null)
    for (const m of n.l)
      if (!check(m, x, d)) {
        if (quiet > 0) return false;
        ok = false;
      }
  if (n.u !== null && !checkUnion(n, n.u, false, x, d)) ok = false;
  if (n.o !== null && !checkUnion(n, n.o, true, x, d)) ok = false;
  return ok;
}

function inEnum(e: readonly unknown[], x: unknown): boolean {
  for (const v of e) if (equal(v, x)) return true;
  return false;
}

function checkObject(n: Node, x: Rec, d: number): boolean {
  let ok = true;
  const keys = n.p;
  if (keys !== null) {
    for (let j = 0; j < keys.length; j++) {
      const k = keys[j]!;
      if (own(x, k)) {
        const child = n.q[j]!;
        const v = x[k];
        if (child.leaf) {
          if ((child.t & bit(v)) === 0) {
            if (quiet > 0) return false;
            ok = report("/" + escapeToken(k), describeNode(child), describeValue(v));
          }
          continue;
        }
        const from = issues.length;
        if (!check(child, v, d + 1)) {
          if (quiet > 0) return false;
          ok = false;
          prefix(from, k);
        }
      } else if (n.r[j]) {
        if (quiet > 0) return false;
        ok = report("/" + escapeToken(k), describeNode(n.q[j]!), "missing");
      }
    }
  }
  const extra = n.a;
  // `additionalProperties: {}` admits every value: no need to visit the keys.
  if (extra !== null && !extra.any) {
    // for-in walks V8's enum cache without allocating; `own` drops inherited keys.
    for (const k in x) {
      if (!own(x, k) || (keys !== null && keys.includes(k))) continue;
      const from = issues.length;
      if (!check(extra, x[k], d + 1)) {
        if (quiet > 0) return false;
        ok = false;
        prefix(from, k);
      }
    }
  }
  return ok;
}

function checkArray(n: Node, x: readonly unknown[], d: number): boolean {
  if (x.length < n.ni) return quiet > 0 ? false : report("", `at least ${n.ni} items`, describeValue(x));
  if (x.length > n.xi) return quiet > 0 ? false : report("", `at most ${n.xi} items`, describeValue(x));
  const item = n.i;
  if (item === null || item.any) return true;
  let ok = true;
  for (let j = 0; j < x.length; j++) {
    const from = issues.length;
    if (!check(item, x[j], d + 1)) {
      if (quiet > 0 || issues.length >= VALIDATION_LIMITS.maxErrors) return false;
      ok = false;
      prefix(from, String(j));
    }
  }
  return ok;
}

function checkString(n: Node, x: string): boolean {
  if (n.nl > 0 || n.xl < Infinity) {
    // JSON Schema counts code points, not UTF-16 units.
    let len = 0;
    for (const _ of x) len++;
    if (len < n.nl) return quiet > 0 ? false : report("", `at least ${n.nl} characters`, describeValue(x));
    if (len > n.xl) return quiet > 0 ? false : report("", `at most ${n.xl} characters`, describeValue(x));
  }
  if (n.re !== null && !n.re.test(x)) return quiet > 0 ? false : report("", `a string matching ${n.re.source}`, describeValue(x));
  if (n.fn !== "" && !FORMATS.get(n.fn)!(x)) return quiet > 0 ? false : report("", `a string in format ${n.fn}`, describeValue(x));
  return true;
}

function checkUnion(n: Node, members: readonly Node[], exactlyOne: boolean, x: unknown, d: number): boolean {
  if (n.dm !== null && bit(x) === OBJ) {
    // Every member requires a distinct const at `dk`: only that member can match.
    const v = own(x as object, n.dk) ? (x as Rec)[n.dk] : undefined;
    const member = n.dm.get(v);
    if (member !== undefined) return check(member, x, d);
    return quiet > 0 ? false : report("/" + escapeToken(n.dk), [...n.dm.keys()].map((k) => JSON.stringify(k)).join(" | "), describeValue(v));
  }
  let matches = 0;
  quiet++;
  for (const m of members) {
    if (check(m, x, d) && (++matches > 1 || !exactlyOne)) break;
  }
  quiet--;
  if (exactlyOne ? matches === 1 : matches > 0) return true;
  if (quiet > 0) return false;
  if (matches > 1) return report("", `exactly one of ${describeNode(n)}`, `${describeValue(x)} matching several`);
  // When a single member admits this JSON type, its own issues say more than "none matched".
  const b = bit(x);
  const fitting = members.filter((m) => (m.t & b) !== 0);
  if (fitting.length === 1) return check(fitting[0]!, x, d);
  return report("", describeNode(n), describeValue(x));
}

function blankNode(): Node {
  return {
    nm: "",
    any: false,
    leaf: false,
    t: ALL,
    c: undefined,
    e: null,
    p: null,
    q: [],
    r: [],
    a: null,
    i: null,
    u: null,
    o: null,
    l: null,
    dk: "",
    dm: null,
    fn: "",
    n: -Infinity,
    x: Infinity,
    ni: 0,
    xi: Infinity,
    nl: 0,
    xl: Infinity,
    re: null,
  };
}

function decode(table: WireTable): Tables {
  const names = table.names.split(",");
  const nodes = table.nodes.map((w) => (typeof w === "number" ? null : blankNode()));
  // Alias entries name their final target, so one step resolves them.
  const at = (j: number): Node => {
    const w = table.nodes[j];
    return nodes[typeof w === "number" ? w : j]!;
  };
  table.nodes.forEach((w, j) => {
    if (typeof w === "number") return;
    const n = nodes[j]!;
    if (j < names.length) n.nm = names[j]!;
    for (const k of SCALARS) {
      const v = w[k];
      if (v !== undefined) n[k] = v;
    }
    if (own(w, "c")) n.c = w.c;
    if (w.e) n.e = w.e;
    if (w.p) {
      n.p = [];
      for (let k = 0; k < w.p.length; k += 2) {
        const ref = w.p[k + 1] as number;
        n.p.push(w.p[k] as string);
        n.q.push(at(ref < 0 ? ~ref : ref));
        n.r.push(ref < 0);
      }
    }
    if (w.a !== undefined) {
      n.a = at(w.a);
    }
    if (w.i !== undefined) n.i = at(w.i);
    if (w.u) n.u = w.u.map(at);
    if (w.o) n.o = w.o.map(at);
    if (w.l) n.l = w.l.map(at);
    if (w.d !== undefined) n.dk = w.d;
    if (w.f !== undefined) n.fn = w.f;
    if (w.r !== undefined) n.re = new RegExp(w.r, "u");
    const keys = Object.keys(w);
    n.any = keys.length === 0;
    n.leaf = keys.length === 1 && keys[0] === "t";
  });
  // Discriminator maps need every member decoded first.
  for (const n of nodes) {
    if (n === null || n.dk === "") continue;
    n.dm = new Map();
    for (const m of n.u ?? n.o ?? []) n.dm.set(m.q[m.p!.indexOf(n.dk)]!.c, m);
  }
  return {
    version: table.version,
    index: new Map(names.map((name, j) => [name, j])),
    nodes: table.nodes.map((_, j) => at(j)),
    methods: new Map(
      table.methods.map(([name, kind, params, required, ...results]) => [
        name,
        { kind, params: params < 0 ? null : at(params), required: required === 1, results: results.map(at) },
      ]),
    ),
    result: at(table.result),
    error: at(table.error),
  };
}

const OK: ValidationResult = Object.freeze({ ok: true });

/** Runs one check with `issues` collected; every entry point goes through here or `test`. */
function run(n: Node, x: unknown, key: string | null): readonly ValidationIssue[] | null {
  try {
    if (check(n, x, 0)) return null;
  } catch (err) {
    if (err !== TOO_DEEP) throw err;
    quiet = 0;
    issues = [];
    report("", `nesting at most ${VALIDATION_LIMITS.maxDepth} levels deep`, "deeper nesting");
  }
  if (key !== null) prefix(0, key);
  const found = issues;
  issues = [];
  return found;
}

function test(n: Node, x: unknown): boolean {
  quiet = 1;
  try {
    return check(n, x, 0);
  } catch (err) {
    if (err !== TOO_DEEP) throw err;
    return false;
  } finally {
    quiet = 0;
  }
}

function validateDefinition(t: Tables, name: string, value: unknown): ValidationResult {
  const j = t.index.get(name);
  if (j === undefined) {
    return { ok: false, errors: [{ pointer: "", expected: `a definition name of ${t.version}`, got: describeValue(name) }] };
  }
  const errors = run(t.nodes[j]!, value, null);
  return errors === null ? OK : { ok: false, errors };
}

/** Not generic on purpose: each exported guard casts it to its predicate, which costs a consumer's tsc no instantiation. */
function guard(t: () => Tables, j: number): (value: unknown) => boolean {
  return (value: unknown) => test(t().nodes[j]!, value);
}

const KINDS = ["request", "notification", "result", "error"] as const;
const MESSAGE_OK = KINDS.map((kind) => Object.freeze({ ok: true as const, kind }));

function invalid(code: -32600 | -32601 | -32602, pointer: string, expected: string, got: string): MessageValidationResult {
  return { ok: false, code, errors: [{ pointer, expected, got }] };
}

function validateEnvelope(t: Tables, msg: unknown): MessageValidationResult {
  if (bit(msg) !== OBJ) return invalid(-32600, "", "a JSON-RPC 2.0 message object", describeValue(msg));
  const m = msg as Rec;
  const jsonrpc = own(m, "jsonrpc") ? m["jsonrpc"] : undefined;
  if (jsonrpc !== "2.0") return invalid(-32600, "/jsonrpc", '"2.0"', describeValue(jsonrpc));
  const hasId = own(m, "id");
  // MCP forbids a null id, and JSON-RPC ids are never fractional.
  if (hasId && typeof m["id"] !== "string" && !Number.isInteger(m["id"])) {
    return invalid(-32600, "/id", "string | integer", describeValue(m["id"]));
  }
  const hasResult = own(m, "result");
  const hasError = own(m, "error");
  if (own(m, "method")) {
    const method = m["method"];
    if (typeof method !== "string") return invalid(-32600, "/method", "string", describeValue(method));
    if (hasResult || hasError) return invalid(-32600, hasResult ? "/result" : "/error", "no result or error beside a method", "present");
    const kind = hasId ? 0 : 1;
    const entry = t.methods.get(method);
    if (entry === undefined || entry.kind > 1) {
      return invalid(-32601, "/method", `a ${KINDS[kind]} method of ${t.version}`, describeValue(method));
    }
    if (entry.kind !== kind) {
      return invalid(-32600, "/id", entry.kind === 0 ? `an id: ${method} is a request` : `no id: ${method} is a notification`, describeValue(m["id"]));
    }
    if (entry.params === null) return MESSAGE_OK[kind]!;
    if (!own(m, "params")) {
      return entry.required ? invalid(-32602, "/params", describeNode(entry.params), "missing") : MESSAGE_OK[kind]!;
    }
    const errors = run(entry.params, m["params"], "params");
    return errors === null ? MESSAGE_OK[kind]! : { ok: false, code: -32602, errors };
  }
  if (hasResult === hasError) return invalid(-32600, "", "exactly one of result and error", hasResult ? "both" : "neither");
  if (hasResult && !hasId) return invalid(-32600, "/id", "string | integer", "missing");
  const errors = hasResult ? run(t.result, m["result"], "result") : run(t.error, m["error"], "error");
  return errors === null ? MESSAGE_OK[hasResult ? 2 : 3]! : { ok: false, code: -32600, errors };
}

function validateMethodResult(t: Tables, method: string, result: unknown): ValidationResult {
  const entry = t.methods.get(method);
  if (entry === undefined || entry.kind === 1) {
    return { ok: false, errors: [{ pointer: "", expected: `a request method of ${t.version}`, got: describeValue(method) }] };
  }
  for (const n of entry.results) if (test(n, result)) return OK;
  // None matched: explain against the primary result, the one a well-behaved peer sends.
  return { ok: false, errors: run(entry.results[0]!, result, null)! };
}

import {
  decodeHeaderValue,
  encodeHeaderValue,
  isPlainHeaderValue,
  type SentinelForm,
} from "./header-value.js";
import { escapeToken, isObject, own, type JsonObject } from "./json.js";
import { metaOf } from "./builders.js";

/**
 * The request metadata headers of the Streamable HTTP transport (modern releases): what a client
 * sends beside the body, what a server checks against it, and the HTTP status of each answer.
 * Every name, code and status comes from the release's `HttpSpec`, written from schema/facts.json.
 */
type RequestId = string | number;

export interface HttpSpec {
  readonly protocolVersionHeader: string;
  readonly methodHeader: string;
  readonly nameHeader: string;
  /** `Mcp-Param-`: prefix of the headers mirrored from annotated tool arguments. */
  readonly paramHeaderPrefix: string;
  /** method → the params key sent as the name header. */
  readonly nameParam: { readonly [method: string]: string };
  /** The schema keyword that annotates a tool argument for mirroring (`x-mcp-header`). */
  readonly headerAnnotation: string;
  /** The method whose `params[argumentsParam]` carry the tool's arguments. */
  readonly toolCallMethod: string;
  readonly argumentsParam: string;
  /** JSON Schema types an annotated argument may have. */
  readonly headerParamTypes: readonly string[];
  readonly sentinel: SentinelForm;
  /** The request `_meta` key holding the protocol version. */
  readonly protocolVersionMetaKey: string;
  readonly headerMismatchCode: number;
  readonly internalErrorCode: number;
  /** HTTP status of an error response, by JSON-RPC code; codes not listed go with `resultStatus`. */
  readonly errorStatus: { readonly [code: string]: number };
  readonly resultStatus: number;
  /** A notification the server accepted. */
  readonly acceptedStatus: number;
}

/** What a client's request headers read of `HttpSpec` (`requestHeaders`, `headerParamsOf`): no statuses, no server codes. */
export type RequestHeaderSpec = Pick<
  HttpSpec,
  | "protocolVersionHeader"
  | "methodHeader"
  | "nameHeader"
  | "paramHeaderPrefix"
  | "nameParam"
  | "headerAnnotation"
  | "toolCallMethod"
  | "argumentsParam"
  | "headerParamTypes"
  | "sentinel"
  | "protocolVersionMetaKey"
>;

/** A tool as far as headers care: its name and input schema. */
export interface HeaderTool {
  readonly name: string;
  readonly inputSchema: unknown;
}

export interface HeaderParam {
  /** The annotation's value: `Region` in `Mcp-Param-Region`. */
  readonly name: string;
  /** The full header name. */
  readonly header: string;
  /** `properties` keys from the root of `inputSchema` to the argument. */
  readonly path: readonly string[];
  readonly type: string;
}

export type ToolHeaderParams =
  | { readonly ok: true; readonly params: readonly HeaderParam[] }
  | { readonly ok: false; readonly reason: string };

export type HeaderSource =
  | { get(name: string): string | null }
  | { readonly [name: string]: string | readonly string[] | undefined };

export type HttpCheck =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly status: number;
      readonly response: {
        jsonrpc: "2.0";
        id: RequestId | null;
        error: { code: number; message: string };
      };
    };

/** RFC 9110 token: what a header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Keywords whose values are data, not subschemas: an `x-mcp-header` key inside them is no annotation. */
const VALUE_KEYWORDS = ["const", "enum", "default", "examples"];

/** A path is reachable when it alternates `properties` and a property name, from the root. */
function propertyPath(path: readonly string[]): string[] | undefined {
  if (path.length === 0 || path.length % 2 !== 0) return undefined;
  const names: string[] = [];
  for (let i = 0; i < path.length; i += 2) {
    if (path[i] !== "properties") return undefined;
    names.push(path[i + 1]!);
  }
  return names;
}

function declaredType(schema: JsonObject, allowed: readonly string[]): string | undefined {
  // A string or a list of them; `null` beside the type is allowed: a null argument simply sends no header.
  const real = [schema["type"]].flat().filter((t) => t !== "null");
  // `allowed` holds strings only, so what it includes is one.
  const type = real[0] as string;
  return real.length === 1 && allowed.includes(type) ? type : undefined;
}

/**
 * Why a tool's annotations are refused, as data: `toolHeaderParams` words it, while a client, which only
 * drops the tool, bundles no text. `name` is the annotation's value, `path` the keys to it, `first` the name
 * it repeats.
 */
export interface HeaderProblem {
  readonly why: "schema" | "deep" | "token" | "reach" | "type" | "repeat";
  readonly name?: string;
  readonly path?: readonly string[];
  readonly first?: string;
}

/**
 * A tool's `x-mcp-header` annotations checked against every constraint of the spec: a non-empty
 * token, case-insensitively unique, only on string/integer/boolean properties, reachable from
 * the root through `properties` alone. The parameters, or the first problem.
 */
export function headerParamsOf(
  spec: RequestHeaderSpec,
  inputSchema: unknown,
): readonly HeaderParam[] | HeaderProblem {
  if (!isObject(inputSchema)) return { why: "schema" };
  const params: HeaderParam[] = [];
  const seen = new Map<string, string>();
  let problem: HeaderProblem | undefined;
  // A node's depth is the length of its path, which grows by one key per level.
  const visit = (node: unknown, path: string[]): void => {
    if (problem !== undefined) return;
    if (path.length > 64) {
      problem = { why: "deep" };
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const fields = node as JsonObject;
    // Arrays are walked by index, like objects by key; only an object holds an annotation.
    if (!Array.isArray(node) && own(fields, spec.headerAnnotation)) {
      const name = fields[spec.headerAnnotation];
      const names = propertyPath(path);
      const type = declaredType(fields, spec.headerParamTypes);
      if (typeof name !== "string" || !TOKEN.test(name)) problem = { why: "token", path };
      else if (names === undefined) problem = { why: "reach", path };
      else if (type === undefined) problem = { why: "type", name, path };
      else if (seen.has(name.toLowerCase()))
        problem = { why: "repeat", name, first: seen.get(name.toLowerCase())! };
      else {
        seen.set(name.toLowerCase(), name);
        params.push({ name, header: spec.paramHeaderPrefix + name, path: names, type });
      }
    }
    for (const key of Object.keys(node))
      if (!VALUE_KEYWORDS.includes(key) && key !== spec.headerAnnotation)
        visit(fields[key], [...path, key]);
  };
  visit(inputSchema, []);
  return problem ?? params;
}

/** A listed tool's header parameters, or undefined when a client drops the tool (`headerParamsOf` found a problem). */
export function listedToolParams(
  spec: RequestHeaderSpec,
  tool: { readonly inputSchema?: unknown },
): readonly HeaderParam[] | undefined {
  const found = headerParamsOf(spec, tool.inputSchema);
  return Array.isArray(found) ? (found as readonly HeaderParam[]) : undefined;
}

/** `headerParamsOf` for a tool, with the problem worded. A client drops a tool that fails from `tools/list`. */
export function toolHeaderParams(spec: RequestHeaderSpec, tool: HeaderTool): ToolHeaderParams {
  const found = headerParamsOf(spec, tool.inputSchema);
  if (Array.isArray(found)) return { ok: true, params: found };
  const { why, name, path, first } = found as HeaderProblem;
  const where = "/" + (path ?? []).map(escapeToken).join("/");
  const at = `${spec.headerAnnotation} at ${where}`;
  const named = `${spec.headerAnnotation} "${name}"`;
  const problem = {
    schema: "inputSchema is not an object",
    deep: "inputSchema is nested too deeply",
    token: `${at} must be a non-empty HTTP token`,
    reach: `${at} is not reachable from the root through properties alone`,
    type: `${named} at ${where} must annotate a property of type ${spec.headerParamTypes.join(", ")}`,
    repeat: `${named} repeats "${first}" (names are case-insensitive)`,
  }[why];
  return { ok: false, reason: `tool "${tool.name}": ${problem}` };
}

function argumentAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) value = isObject(value) && own(value, key) ? value[key] : undefined;
  return value;
}

/**
 * The text an argument value stands for in its header, or undefined when it does not fit the declared type:
 * `integer` (a safe one), or `string` and `boolean`, which `typeof` names alike.
 */
function argumentText(value: unknown, type: string): string | undefined {
  const fits = type === "integer" ? Number.isSafeInteger(value) : typeof value === type;
  return fits ? String(value) : undefined;
}

function plain(header: string, value: string): string {
  if (!isPlainHeaderValue(value))
    throw new RangeError(
      `${header} cannot carry ${JSON.stringify(value)}: it is not a plain header value`,
    );
  return value;
}

/**
 * The headers a client sends with a request: the protocol version (from `_meta`), the method,
 * the name for the methods routed by name, and with `tool` one `Mcp-Param-{Name}` per annotated
 * argument present in the call. Throws a RangeError for what no header can say (an invalid tool,
 * a call to another tool, an argument that does not fit its declared type).
 */
export function httpHeaders(
  spec: RequestHeaderSpec,
  message: { readonly method: string; readonly id?: unknown; readonly params?: unknown },
  options: { readonly tool?: HeaderTool } = {},
): Record<string, string> {
  const tool = options.tool;
  if (tool === undefined || message.method !== spec.toolCallMethod)
    return requestHeaders(spec, message);
  const name = isObject(message.params)
    ? message.params[spec.nameParam[message.method]!]
    : undefined;
  if (name !== tool.name)
    throw new RangeError(`the call names tool ${JSON.stringify(name)}, not "${tool.name}"`);
  const annotated = toolHeaderParams(spec, tool);
  if (!annotated.ok) throw new RangeError(annotated.reason);
  return requestHeaders(spec, message, annotated.params);
}

/**
 * `httpHeaders` given the tool's parameters (`headerParamsOf`) rather than the tool: what a client that
 * checked its tools when they were listed sends. `params` count for a call of the tool method only.
 */
export function requestHeaders(
  spec: RequestHeaderSpec,
  message: { readonly method: string; readonly id?: unknown; readonly params?: unknown },
  params?: readonly HeaderParam[],
): Record<string, string> {
  const headers: Record<string, string> = {};
  const version = metaOf(message.params)?.[spec.protocolVersionMetaKey];
  if (typeof version === "string")
    headers[spec.protocolVersionHeader] = plain(spec.protocolVersionHeader, version);
  headers[spec.methodHeader] = plain(spec.methodHeader, message.method);
  const body = isObject(message.params) ? message.params : undefined;
  const nameKey = own(spec.nameParam, message.method) ? spec.nameParam[message.method] : undefined;
  const name = nameKey === undefined ? undefined : body?.[nameKey];
  if (typeof name === "string" && message.id !== undefined)
    headers[spec.nameHeader] = encodeHeaderValue(name, spec.sentinel);
  if (params === undefined || message.method !== spec.toolCallMethod) return headers;
  return { ...headers, ...paramHeaders(spec, params, body?.[spec.argumentsParam]) };
}

/**
 * The `Mcp-Param-{Name}` headers of one call: one per annotated argument present in `args` (`params`
 * from `toolHeaderParams`). Throws a RangeError for an argument that does not fit its declared type.
 */
export function paramHeaders(
  spec: RequestHeaderSpec,
  params: readonly HeaderParam[],
  args: unknown,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    const value = argumentAt(args, param.path);
    if (value === undefined || value === null) continue;
    const text = argumentText(value, param.type);
    if (text === undefined)
      throw new RangeError(
        `argument ${param.path.join(".")} is not a ${param.type === "integer" ? "safe integer" : param.type}, so ${param.header} cannot carry it`,
      );
    headers[param.header] = encodeHeaderValue(text, spec.sentinel);
  }
  return headers;
}

/** Header values by lower-cased name; null for a name that appears in more than one casing. */
function foldNames(
  record: { readonly [name: string]: string | readonly string[] | undefined },
  keys: readonly string[],
): Map<string, string | readonly string[] | undefined | null> {
  const byName = new Map<string, string | readonly string[] | undefined | null>();
  for (const key of keys) {
    const lower = key.toLowerCase();
    byName.set(lower, byName.has(lower) ? null : record[key]);
  }
  return byName;
}

/** Header lookup by case-insensitive name; a header sent twice reads as invalid (null). */
function headerReader(headers: HeaderSource): (name: string) => string | undefined | null {
  if (typeof (headers as { get?: unknown }).get === "function") {
    const source = headers as { get(name: string): string | null };
    return (name) => {
      const value = source.get(name);
      return value === null ? undefined : value;
    };
  }
  const record = headers as { readonly [name: string]: string | readonly string[] | undefined };
  const keys = Object.keys(record);
  // The adapters hand over lower-cased names (node:http, the fetch adapter), which are read as they
  // are; only other casings need names folded, where one name sent twice reads as invalid.
  const byName = keys.every((key) => key === key.toLowerCase())
    ? undefined
    : foldNames(record, keys);
  return (name) => {
    const lower = name.toLowerCase();
    const value =
      byName !== undefined ? byName.get(lower) : own(record, lower) ? record[lower] : undefined;
    if (value === undefined || value === null) return value;
    if (typeof value === "string") return value;
    return value.length === 1 && typeof value[0] === "string" ? value[0] : null;
  };
}

/** Whether a header's decoded text says the same as the body value, integers compared as numbers. */
function sameValue(text: string, body: unknown, type: string): boolean {
  if (type === "integer")
    return typeof body === "number" && /^-?\d+(?:\.0*)?$/.test(text) && Number(text) === body;
  return argumentText(body, type) === text;
}

/**
 * The server side: the request metadata headers compared with the body. Header names are
 * case-insensitive; encoded values are decoded first. Any missing, malformed or disagreeing
 * header gives `{ ok: false }` with the HTTP status and the -32020 error response to send.
 * Never throws. Notifications pass: this revision defines no headers for them.
 */
export function checkHttpHeaders(
  spec: HttpSpec,
  headers: HeaderSource,
  body: object,
  options: { readonly tool?: HeaderTool } = {},
): HttpCheck {
  const message = body as {
    readonly method?: unknown;
    readonly id?: unknown;
    readonly params?: unknown;
  };
  const id =
    typeof message.id === "string" ||
    (typeof message.id === "number" && Number.isInteger(message.id))
      ? message.id
      : null;
  const reject = (code: number, text: string): HttpCheck => {
    const response = { jsonrpc: "2.0" as const, id, error: { code, message: text } };
    return { ok: false, status: httpStatusOf(spec, response), response };
  };
  const mismatch = (text: string): HttpCheck =>
    reject(spec.headerMismatchCode, `Header mismatch: ${text}`);
  try {
    if (id === null || typeof message.method !== "string") return { ok: true };
    const read = headerReader(headers);
    const params = isObject(message.params) ? message.params : undefined;
    const plainHeader = (header: string, body: string | undefined): string | undefined => {
      const raw = read(header);
      if (raw === undefined) return `${header} header is missing`;
      if (raw === null || !isPlainHeaderValue(raw)) return `${header} header is malformed`;
      if (body !== undefined && raw !== body) return `${header} header does not match the body`;
      return undefined;
    };
    const version = metaOf(params)?.[spec.protocolVersionMetaKey];
    const problem =
      plainHeader(spec.protocolVersionHeader, typeof version === "string" ? version : undefined) ??
      plainHeader(spec.methodHeader, message.method);
    if (problem !== undefined) return mismatch(problem);

    const nameKey = own(spec.nameParam, message.method)
      ? spec.nameParam[message.method]
      : undefined;
    if (nameKey !== undefined) {
      const body = params?.[nameKey];
      const raw = read(spec.nameHeader);
      if (raw === undefined) return mismatch(`${spec.nameHeader} header is missing`);
      const decoded = raw === null ? undefined : decodeHeaderValue(raw, spec.sentinel);
      if (decoded === undefined) return mismatch(`${spec.nameHeader} header is malformed`);
      if (typeof body === "string" && decoded !== body)
        return mismatch(`${spec.nameHeader} header does not match the body`);
    }

    if (
      options.tool === undefined ||
      message.method !== spec.toolCallMethod ||
      params?.[nameKey ?? ""] !== options.tool.name
    )
      return { ok: true };
    const annotated = headerParamsOf(spec, options.tool.inputSchema);
    if (!Array.isArray(annotated)) return reject(spec.internalErrorCode, "Internal error");
    const args = params?.[spec.argumentsParam];
    for (const param of annotated as readonly HeaderParam[]) {
      const body = argumentAt(args, param.path);
      const raw = read(param.header);
      const present = body !== undefined && body !== null;
      if (raw === undefined) {
        if (present) return mismatch(`${param.header} header is missing`);
        continue;
      }
      const decoded = raw === null ? undefined : decodeHeaderValue(raw, spec.sentinel);
      if (decoded === undefined) return mismatch(`${param.header} header is malformed`);
      if (!present || !sameValue(decoded, body, param.type))
        return mismatch(`${param.header} header does not match the body`);
    }
    return { ok: true };
  } catch {
    // Only a hostile header object (a throwing getter) gets here; treat it as unreadable headers.
    return mismatch("headers could not be read");
  }
}

/** The HTTP status for what the dispatcher answered: `acceptedStatus` for no response (a notification), the error's status, else `resultStatus`. */
export function httpStatusOf(spec: HttpSpec, response: object | undefined): number {
  if (response === undefined) return spec.acceptedStatus;
  const error = (response as { readonly error?: unknown }).error;
  const code = isObject(error) ? error["code"] : undefined;
  if (typeof code !== "number" || !own(spec.errorStatus, String(code))) return spec.resultStatus;
  return spec.errorStatus[String(code)]!;
}

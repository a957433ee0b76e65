import { VariableDeclarationKind } from "ts-morph";
import type { StatementSink } from "./source-file.ts";
import type { HttpModel } from "../model/protocol-model.ts";

/**
 * The JSON-RPC plumbing that every `envelope.ts` and `runtime.ts` carry as private helpers:
 * classifying parsed JSON, encoding, `_meta` merging and HTTP header values. Emitted into each
 * file rather than shared, so one version's folder stands alone and bundles without the rest.
 */

/** Types both files declare: the parse outcome and the untyped wire shapes the classifier produces. */
export function addCoreTypes(file: StatementSink): void {
  file.addTypeAlias({
    name: "ParseFailure",
    isExported: true,
    docs: [
      "Why a text is not a message: -32700 when it is not JSON, -32600 when it is JSON but not a JSON-RPC 2.0 message; " +
        "with `validate`, also -32601 (unknown method) and -32602 (params that do not fit the schema).",
    ],
    type: "{ ok: false; error: { code: -32700 | -32600 | -32601 | -32602; message: string } }",
  });
  file.addTypeAlias({
    name: "ParseOutcome",
    isExported: true,
    typeParameters: ["M"],
    type: "{ ok: true; message: M } | ParseFailure",
  });
  file.addTypeAlias({ name: "JsonObject", type: "{ [key: string]: unknown }" });
  file.addTypeAlias({ name: "RequestIdValue", type: "string | number" });
  file.addTypeAlias({
    name: "WireMessage",
    type: [
      '{ kind: "request"; jsonrpc: "2.0"; id: RequestIdValue; method: string; params?: JsonObject }',
      '{ kind: "notification"; jsonrpc: "2.0"; method: string; params?: JsonObject }',
      '{ kind: "result"; jsonrpc: "2.0"; id: RequestIdValue; result: JsonObject }',
      '{ kind: "error"; jsonrpc: "2.0"; id?: RequestIdValue; error: { code: number; message: string; data?: unknown } }',
    ].join(" | "),
  });
}

/** Private helpers: `own`, `isObject`, `classify` (JSON value → message or -32600), `parseText`, `encodeMessage`, `metaOf`. */
export function addCoreFunctions(file: StatementSink): void {
  file.addFunction({
    name: "own",
    parameters: [
      { name: "o", type: "object" },
      { name: "key", type: "string" },
    ],
    returnType: "boolean",
    statements: ["return Object.prototype.hasOwnProperty.call(o, key);"],
  });
  file.addFunction({
    name: "isObject",
    parameters: [{ name: "v", type: "unknown" }],
    returnType: "v is JsonObject",
    statements: ['return typeof v === "object" && v !== null && !Array.isArray(v);'],
  });
  file.addFunction({
    name: "invalid",
    parameters: [{ name: "message", type: "string" }],
    returnType: "ParseFailure",
    statements: ["return { ok: false, error: { code: -32600, message } };"],
  });
  file.addFunction({
    name: "classify",
    docs: [
      "Sorts a parsed JSON value into the four JSON-RPC message kinds, copying only the members JSON-RPC defines " +
        "into fresh literals: no input key is ever assigned onto an object, so `__proto__` in the input stays inert data.",
    ],
    parameters: [{ name: "value", type: "unknown" }],
    returnType: "ParseOutcome<WireMessage>",
    statements: [
      'if (!isObject(value)) return invalid("a JSON-RPC 2.0 message is one JSON object (batches are not part of MCP)");',
      'if (value["jsonrpc"] !== "2.0") return invalid(\'"jsonrpc" must be "2.0"\');',
      'const id = value["id"];',
      'const hasId = own(value, "id");',
      'if (hasId && typeof id !== "string" && !(typeof id === "number" && Number.isInteger(id))) return invalid(\'"id" must be a string or an integer\');',
      'const hasResult = own(value, "result");',
      'const hasError = own(value, "error");',
      `if (own(value, "method")) {
        const method = value["method"];
        if (typeof method !== "string") return invalid('"method" must be a string');
        if (hasResult || hasError) return invalid("a request or notification carries neither result nor error");
        let tail: { params?: JsonObject } = {};
        if (own(value, "params")) {
          const params = value["params"];
          if (!isObject(params)) return invalid('"params" must be an object');
          tail = { params };
        }
        return { ok: true, message: hasId ? { kind: "request", jsonrpc: "2.0", id: id as RequestIdValue, method, ...tail } : { kind: "notification", jsonrpc: "2.0", method, ...tail } };
      }`,
      'if (hasResult && hasError) return invalid("a response carries result or error, not both");',
      `if (hasResult) {
        const result = value["result"];
        if (!hasId) return invalid('a result response needs an "id"');
        if (!isObject(result)) return invalid('"result" must be an object');
        return { ok: true, message: { kind: "result", jsonrpc: "2.0", id: id as RequestIdValue, result } };
      }`,
      'if (!hasError) return invalid(\'a message needs "method", "result" or "error"\');',
      'const error = value["error"];',
      'if (!isObject(error) || !Number.isInteger(error["code"]) || typeof error["message"] !== "string") return invalid(\'"error" needs an integer "code" and a string "message"\');',
      'const body = { code: error["code"] as number, message: error["message"], ...(own(error, "data") ? { data: error["data"] } : {}) };',
      'return { ok: true, message: { kind: "error", jsonrpc: "2.0", ...(hasId ? { id: id as RequestIdValue } : {}), error: body } };',
    ],
  });
  file.addFunction({
    name: "parseText",
    docs: ["Never throws: JSON.parse errors (including a RangeError on absurd input) become -32700."],
    parameters: [{ name: "text", type: "string" }],
    returnType: "ParseOutcome<WireMessage>",
    statements: [
      "let value: unknown;",
      'try { value = JSON.parse(text); } catch { return { ok: false, error: { code: -32700, message: "not JSON" } }; }',
      "return classify(value);",
    ],
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name: "MEMBERS", initializer: '["jsonrpc", "id", "method", "params", "result", "error"] as const' }],
  });
  file.addFunction({
    name: "wire",
    docs: ["Only JSON-RPC's members, so the `kind` that `parse` adds never reaches the wire."],
    parameters: [{ name: "message", type: "object" }],
    returnType: "JsonObject",
    statements: [
      "const source = message as JsonObject;",
      "const out: JsonObject = {};",
      "for (const key of MEMBERS) if (own(source, key) && source[key] !== undefined) out[key] = source[key];",
      "return out;",
    ],
  });
  file.addFunction({
    name: "encodeMessage",
    parameters: [{ name: "message", type: "object" }],
    returnType: "string",
    statements: ["return JSON.stringify(wire(message));"],
  });
  file.addFunction({
    name: "envelope",
    docs: ["A request (with `id`) or notification: `params` only when there are any."],
    parameters: [
      { name: "method", type: "string" },
      { name: "params", type: "JsonObject | undefined" },
      { name: "id", type: "RequestIdValue | undefined" },
    ],
    returnType: "JsonObject",
    statements: [
      "// Literals, not a spread of a shared head: V8 builds these several times faster.",
      'if (id === undefined) return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };',
      'return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };',
    ],
  });
  file.addFunction({
    name: "metaOf",
    docs: ["The `_meta` object of a params or result object, if it has one."],
    parameters: [{ name: "holder", type: "unknown" }],
    returnType: "JsonObject | undefined",
    statements: ['const meta = isObject(holder) ? holder["_meta"] : undefined;', "return isObject(meta) ? meta : undefined;"],
  });
  file.addFunction({
    name: "withMeta",
    docs: [
      "A copy of `params` carrying `meta` as `_meta`; the caller's object is never changed. Object.assign copies several " +
        "times faster than spread here, but it would run the `__proto__` setter, so params with an own `__proto__` key are spread.",
    ],
    parameters: [
      { name: "params", type: "JsonObject | undefined" },
      { name: "meta", type: "JsonObject" },
    ],
    returnType: "JsonObject",
    statements: [
      "if (params === undefined) return { _meta: meta };",
      'const copy: JsonObject = own(params, "__proto__") ? { ...params } : Object.assign({}, params);',
      'copy["_meta"] = meta;',
      "return copy;",
    ],
  });
}

/** `httpHeaders` and its two projections; `metaKey` is the protocol-version key of `_meta`. */
export function addHttpFunctions(file: StatementSink, http: HttpModel, protocolVersionKey: string): void {
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    docs: ["method → the params key whose value is the `Mcp-Name` header."],
    declarations: [{ name: "NAME_PARAM", type: "Readonly<Record<string, string>>", initializer: JSON.stringify(Object.fromEntries(http.nameParam)) }],
  });
  file.addFunction({
    name: "utf8",
    docs: ["UTF-8 bytes of a string, by hand: the generated code assumes no DOM or Node globals."],
    parameters: [{ name: "text", type: "string" }],
    returnType: "number[]",
    statements: [
      "const bytes: number[] = [];",
      `for (const ch of text) {
        let c = ch.codePointAt(0) ?? 0xfffd;
        if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
        if (c < 0x80) bytes.push(c);
        else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
        else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
        else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      }`,
      "return bytes;",
    ],
  });
  file.addFunction({
    name: "headerValue",
    docs: ["Plain printable ASCII goes as is; anything else as `=?base64?<base64 of UTF-8>?=`, as the Streamable HTTP transport specifies."],
    parameters: [{ name: "value", type: "string" }],
    returnType: "string",
    statements: [
      "if (/^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$/.test(value)) return value;",
      'const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";',
      "const b = utf8(value);",
      'let out = "";',
      `for (let i = 0; i < b.length; i += 3) {
        const n = ((b[i] ?? 0) << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
        out += abc[(n >> 18) & 63]! + abc[(n >> 12) & 63]! + (i + 1 < b.length ? abc[(n >> 6) & 63]! : "=") + (i + 2 < b.length ? abc[n & 63]! : "=");
      }`,
      'return "=?base64?" + out + "?=";',
    ],
  });
  file.addFunction({
    name: "protocolVersionOf",
    isExported: true,
    docs: [
      "The protocol version written in an envelope's `params._meta`, or `undefined`. The HTTP transport reads the " +
        "`MCP-Protocol-Version` header from here instead of keeping its own copy: a header that disagrees with the envelope gets -32020.",
    ],
    parameters: [{ name: "envelope", type: "{ readonly params?: unknown }" }],
    returnType: "string | undefined",
    statements: [`const version = metaOf(envelope.params)?.[${JSON.stringify(protocolVersionKey)}];`, 'return typeof version === "string" ? version : undefined;'],
  });
  file.addFunction({
    name: "routingName",
    isExported: true,
    docs: [
      `The \`${http.nameHeader}\` header value: ${[...http.nameParam].map(([m, k]) => `\`params.${k}\` for \`${m}\``).join(", ")}; \`undefined\` for every other method and for notifications.`,
    ],
    parameters: [{ name: "envelope", type: "{ readonly method: string; readonly id?: unknown; readonly params?: unknown }" }],
    returnType: "string | undefined",
    statements: [
      "const key = own(NAME_PARAM, envelope.method) ? NAME_PARAM[envelope.method] : undefined;",
      'if (key === undefined || !own(envelope, "id") || !isObject(envelope.params)) return undefined;',
      "const name = envelope.params[key];",
      'return typeof name === "string" ? name : undefined;',
    ],
  });
  file.addFunction({
    name: "httpHeaders",
    isExported: true,
    docs: [
      `The Streamable HTTP headers of an envelope: \`${http.protocolVersionHeader}\` (read back from \`_meta\`, absent when the envelope has none), ` +
        `\`${http.methodHeader}\`, and \`${http.nameHeader}\` where the method routes by name.`,
    ],
    parameters: [{ name: "envelope", type: "{ readonly method: string; readonly id?: unknown; readonly params?: unknown }" }],
    returnType: "Record<string, string>",
    statements: [
      "const headers: Record<string, string> = {};",
      "const version = protocolVersionOf(envelope);",
      `if (version !== undefined) headers[${JSON.stringify(http.protocolVersionHeader)}] = headerValue(version);`,
      `headers[${JSON.stringify(http.methodHeader)}] = headerValue(envelope.method);`,
      "const name = routingName(envelope);",
      `if (name !== undefined) headers[${JSON.stringify(http.nameHeader)}] = headerValue(name);`,
      "return headers;",
    ],
  });
}

/**
 * `request` and `notification`, the same in every builder module: only the docs and how
 * `request` writes `_meta` differ. `requestBody` computes `meta` from `given` (the caller's
 * params) and `options`, or returns early; the shared tail copies params and wraps them.
 */
export function addMessageBuilders(file: StatementSink, requestDocs: string, requestBody: readonly string[]): void {
  file.addFunction({
    name: "request",
    isExported: true,
    typeParameters: [{ name: "M", constraint: "RequestMethod" }],
    docs: [requestDocs],
    parameters: [
      { name: "method", type: "M" },
      { name: "params", type: "RequestParamsInput<M>" },
      { name: "options", type: "RequestOptions" },
    ],
    returnType: "RequestEnvelope<M>",
    statements: ["const given = params as JsonObject | undefined;", ...requestBody, "return envelope(method, withMeta(given, meta), options.id) as RequestEnvelope<M>;"],
  });
  file.addFunction({
    name: "notification",
    isExported: true,
    typeParameters: [{ name: "M", constraint: "NotificationMethod" }],
    docs: ["A notification: never an `id`, so the peer must not answer it."],
    parameters: [
      { name: "method", type: "M" },
      { name: "...rest", type: "undefined extends NotificationParamsOf<M> ? [params?: NotificationParamsOf<M>] : [params: NotificationParamsOf<M>]" },
    ],
    returnType: "NotificationEnvelope<M>",
    statements: ["return envelope(method, rest[0] as JsonObject | undefined, undefined) as NotificationEnvelope<M>;"],
  });
}

/**
 * `errorResponse`: a code given by number or `ErrorCode` name; `receiveOnly` is the expression
 * listing codes that are recognised but never sent (-32002), which throw a RangeError.
 */
export function addErrorResponse(file: StatementSink, docs: string, idType: string, receiveOnly: string): void {
  file.addFunction({
    name: "errorResponse",
    isExported: true,
    docs: [docs],
    parameters: [
      { name: "id", type: idType },
      { name: "code", type: "number | SendableErrorName" },
      { name: "message", type: "string" },
      { name: "data", type: "unknown", hasQuestionToken: true },
    ],
    returnType: "ErrorEnvelope",
    statements: [
      'const value: number | undefined = typeof code === "number" ? code : own(ErrorCode, code) ? ErrorCode[code] : undefined;',
      `if (value === undefined || ${receiveOnly}.includes(value)) throw new RangeError(\`error code \${String(code)} is not one a builder sends\`);`,
      "const error = data === undefined ? { code: value, message } : { code: value, message, data };",
      'return (id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error }) as ErrorEnvelope;',
    ],
  });
}

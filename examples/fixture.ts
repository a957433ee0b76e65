/**
 * What the example server serves: the tools, resources and prompts the official conformance suite
 * (@modelcontextprotocol/conformance) calls by name, as data and small functions. Nothing here knows
 * about HTTP or JSON-RPC; server.ts puts it on the wire for both protocol eras.
 */
import type * as Modern from "../generated/2026-07-28/index.js";

export const SERVER_INFO = { name: "mcp-bindgen-example-server", version: "0.1.0" };

/** A 1×1 PNG and a minimal WAV file, base64-encoded. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

type Content = Modern.ContentBlock;
type Schema = Modern.Tool["inputSchema"];

const NO_ARGUMENTS: Schema = { type: "object", properties: {} };

/** A tool of the fixture: its listing, and in which eras it is listed. */
export interface FixtureTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Schema;
  readonly eras: readonly ("legacy" | "modern")[];
}

const BOTH = ["legacy", "modern"] as const;
const MODERN_ONLY = ["modern"] as const;
// 2026-07-28's ElicitResult admits no fractional number (schema.json has integer where the spec's
// schema.ts has number), so a form defaulting to 95.5 has no valid modern answer.
const LEGACY_ONLY = ["legacy"] as const;

function tool(
  name: string,
  description: string,
  eras: FixtureTool["eras"] = BOTH,
  inputSchema: Schema = NO_ARGUMENTS,
): FixtureTool {
  return { name, description, inputSchema, eras };
}

/**
 * Arguments against the full JSON Schema 2020-12 vocabulary: clients must pass inputSchema through untouched. A
 * literal, so that the high-level server types the handler's arguments from it.
 */
export const JSON_SCHEMA_2020_12 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
} as const satisfies Schema;

export const TOOLS: readonly FixtureTool[] = [
  tool("echo", "Returns the text it is given", BOTH, {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
  }),
  tool("test_simple_text", "Returns one text block"),
  tool("test_image_content", "Returns one image block"),
  tool("test_audio_content", "Returns one audio block"),
  tool("test_embedded_resource", "Returns an embedded resource"),
  tool("test_multiple_content_types", "Returns text, an image and an embedded resource"),
  tool("test_tool_with_logging", "Logs three messages while it runs"),
  tool("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100"),
  tool("test_error_handling", "Always fails with isError: true"),
  tool("test_sampling", "Asks the client's LLM for a completion", BOTH, {
    type: "object",
    properties: { prompt: { type: "string", description: "The prompt to send to the LLM" } },
    required: ["prompt"],
  }),
  tool("test_elicitation", "Asks the user for input", BOTH, {
    type: "object",
    properties: { message: { type: "string", description: "The message to show the user" } },
    required: ["message"],
  }),
  tool("test_elicitation_sep1034_defaults", "Elicits a form whose fields have defaults", LEGACY_ONLY),
  tool("test_elicitation_sep1330_enums", "Elicits single- and multi-select enums, titled and untitled"),
  tool(
    "json_schema_2020_12_tool",
    "Declares its arguments with JSON Schema 2020-12 keywords",
    BOTH,
    JSON_SCHEMA_2020_12,
  ),
  tool("test_missing_capability", "Needs the client's sampling capability", MODERN_ONLY),
  tool("test_input_required_result_elicitation", "Asks for the user's name, then greets", MODERN_ONLY),
  tool("test_input_required_result_sampling", "Asks the client's LLM a question", MODERN_ONLY),
  tool("test_input_required_result_list_roots", "Asks for the client's roots", MODERN_ONLY),
  tool("test_input_required_result_request_state", "Asks for a confirmation and checks its requestState", MODERN_ONLY),
  tool("test_input_required_result_multiple_inputs", "Asks for a name, a greeting and the roots at once", MODERN_ONLY),
  tool("test_input_required_result_multi_round", "Asks two questions, one round each", MODERN_ONLY),
  tool("test_input_required_result_tampered_state", "Rejects a requestState it did not sign", MODERN_ONLY),
  tool("test_input_required_result_capabilities", "Asks only for what the client declared", MODERN_ONLY),
  tool("test_streaming_elicitation", "Streams a progress notification before its result", MODERN_ONLY),
  tool("test_logging_tool", "Logs only when the request asked for a log level", MODERN_ONLY),
  tool("test_trigger_tool_change", "Announces a tools/list change to subscribers", MODERN_ONLY),
  tool("test_trigger_prompt_change", "Announces a prompts/list change to subscribers", MODERN_ONLY),
  // Mirrored into an Mcp-Param-Region header by clients; the server checks that header against the body.
  tool("test_header_param", "Echoes a region that also travels as an Mcp-Param header", MODERN_ONLY, {
    type: "object",
    properties: { region: { type: "string", description: "Where to run", "x-mcp-header": "Region" } },
    required: ["region"],
  }),
];

export function toolsOf(era: "legacy" | "modern"): FixtureTool[] {
  return TOOLS.filter((entry) => entry.eras.includes(era));
}

/** The tools whose result does not depend on the era or on a peer: name → content. */
export const STATIC_TOOL_CONTENT: Readonly<Record<string, readonly Content[]>> = {
  test_simple_text: [{ type: "text", text: "This is a simple text response for testing." }],
  test_image_content: [{ type: "image", data: PNG, mimeType: "image/png" }],
  test_audio_content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }],
  test_embedded_resource: [
    {
      type: "resource",
      resource: {
        uri: "test://embedded-resource",
        mimeType: "text/plain",
        text: "This is an embedded resource content.",
      },
    },
  ],
  test_multiple_content_types: [
    { type: "text", text: "Multiple content types test:" },
    { type: "image", data: PNG, mimeType: "image/png" },
    {
      type: "resource",
      resource: {
        uri: "test://mixed-content-resource",
        mimeType: "application/json",
        text: JSON.stringify({ test: "data", value: 123 }),
      },
    },
  ],
};

export const ERROR_TOOL_TEXT = "This tool intentionally returns an error for testing";
export const LOG_LINES = ["Tool execution started", "Tool processing data", "Tool execution completed"] as const;

export function text(value: string): Content {
  return { type: "text", text: value };
}

/** The form test_elicitation_sep1034_defaults shows: every primitive type with a default. */
export const DEFAULTS_FORM = {
  message: "Please review and update the form fields with defaults",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: "User name", default: "John Doe" },
      age: { type: "integer", description: "User age", default: 30 },
      score: { type: "number", description: "User score", default: 95.5 },
      status: {
        type: "string",
        description: "User status",
        enum: ["active", "inactive", "pending"],
        default: "active",
      },
      verified: { type: "boolean", description: "Verification status", default: true },
    },
    required: [],
  },
} satisfies Modern.ElicitRequestFormParams;

/** The form test_elicitation_sep1330_enums shows: the enum shapes of SEP-1330. */
export const ENUMS_FORM = {
  message: "Please select options from the enum fields",
  requestedSchema: {
    type: "object",
    properties: {
      untitledSingle: { type: "string", description: "Select one option", enum: ["option1", "option2", "option3"] },
      titledSingle: {
        type: "string",
        description: "Select one option with titles",
        oneOf: [
          { const: "value1", title: "First Option" },
          { const: "value2", title: "Second Option" },
          { const: "value3", title: "Third Option" },
        ],
      },
      legacyEnum: {
        type: "string",
        description: "Select one option (legacy)",
        enum: ["opt1", "opt2", "opt3"],
        enumNames: ["Option One", "Option Two", "Option Three"],
      },
      untitledMulti: {
        type: "array",
        description: "Select multiple options",
        minItems: 1,
        maxItems: 3,
        items: { type: "string", enum: ["option1", "option2", "option3"] },
      },
      titledMulti: {
        type: "array",
        description: "Select multiple options with titles",
        minItems: 1,
        maxItems: 3,
        items: {
          anyOf: [
            { const: "value1", title: "First Choice" },
            { const: "value2", title: "Second Choice" },
            { const: "value3", title: "Third Choice" },
          ],
        },
      },
    },
    required: [],
  },
} satisfies Modern.ElicitRequestFormParams;

// ---- Resources -------------------------------------------------------------------------------

export const RESOURCES = [
  {
    uri: "test://static-text",
    name: "static-text",
    title: "Static Text Resource",
    description: "A static text resource for testing",
    mimeType: "text/plain",
  },
  {
    uri: "test://static-binary",
    name: "static-binary",
    title: "Static Binary Resource",
    description: "A static binary resource (image) for testing",
    mimeType: "image/png",
  },
  {
    uri: "test://watched-resource",
    name: "watched-resource",
    title: "Watched Resource",
    description: "A resource clients may subscribe to",
    mimeType: "text/plain",
  },
] satisfies Modern.Resource[];

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: "test://template/{id}/data",
    name: "template",
    title: "Resource Template",
    description: "A resource template with parameter substitution",
    mimeType: "application/json",
  },
] satisfies Modern.ResourceTemplate[];

const TEMPLATE = /^test:\/\/template\/([^/]+)\/data$/;

/** The contents of a resource, or undefined when there is none by that URI. */
export function readResource(uri: string): (Modern.TextResourceContents | Modern.BlobResourceContents)[] | undefined {
  switch (uri) {
    case "test://static-text":
      return [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }];
    case "test://static-binary":
      return [{ uri, mimeType: "image/png", blob: PNG }];
    case "test://watched-resource":
      return [{ uri, mimeType: "text/plain", text: "Watched resource content" }];
  }
  const id = TEMPLATE.exec(uri)?.[1];
  if (id === undefined) return undefined;
  return [
    { uri, mimeType: "application/json", text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) },
  ];
}

// ---- Prompts ---------------------------------------------------------------------------------

export const PROMPTS = [
  { name: "test_simple_prompt", title: "Simple Test Prompt", description: "A simple prompt without arguments" },
  {
    name: "test_prompt_with_arguments",
    title: "Prompt With Arguments",
    description: "A prompt with required arguments",
    arguments: [
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ],
  },
  {
    name: "test_prompt_with_embedded_resource",
    title: "Prompt With Embedded Resource",
    description: "A prompt that includes an embedded resource",
    arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
  },
  { name: "test_prompt_with_image", title: "Prompt With Image", description: "A prompt that includes image content" },
] satisfies Modern.Prompt[];

export const INPUT_REQUIRED_PROMPT = {
  name: "test_input_required_result_prompt",
  description: "Asks for context before it renders",
} satisfies Modern.Prompt;

/** The messages of a fixture prompt, or a reason it cannot be rendered (unknown name, missing argument). */
export function renderPrompt(name: string, args: Readonly<Record<string, string>>): Modern.PromptMessage[] | string {
  const prompt = PROMPTS.find((entry) => entry.name === name);
  if (prompt === undefined) return `Unknown prompt: ${name}`;
  for (const argument of "arguments" in prompt ? prompt.arguments : []) {
    if (argument.required && args[argument.name] === undefined) return `Missing required argument: ${argument.name}`;
  }
  switch (name) {
    case "test_simple_prompt":
      return [{ role: "user", content: text("This is a simple prompt for testing.") }];
    case "test_prompt_with_arguments":
      return [{ role: "user", content: text(`Prompt with arguments: arg1='${args["arg1"]}', arg2='${args["arg2"]}'`) }];
    case "test_prompt_with_embedded_resource":
      return [
        {
          role: "user",
          content: {
            type: "resource",
            resource: {
              uri: args["resourceUri"] ?? "",
              mimeType: "text/plain",
              text: "Embedded resource content for testing.",
            },
          },
        },
        { role: "user", content: text("Please process the embedded resource above.") },
      ];
    default:
      return [
        { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
        { role: "user", content: text("Please analyze the image above.") },
      ];
  }
}

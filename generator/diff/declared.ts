import type { NormalisedSchema } from "../load/schema-node.ts";
import type { ProtocolModel } from "../model/protocol-model.ts";

const views = new WeakMap<ProtocolModel, NormalisedSchema>();

/**
 * A release's definitions as its bindings declare them (the model's, with open `_meta`, type refinements and
 * corrections applied), in the shape of a schema, so the diff walks what users compile against and nothing else.
 */
export function declared(model: ProtocolModel): NormalisedSchema {
  const known = views.get(model);
  if (known) return known;
  const view: NormalisedSchema = {
    ...model.schema,
    definitions: new Map([...model.definitions].map(([name, d]) => [name, d.schema])),
  };
  views.set(model, view);
  return view;
}

import { describe, expect, it } from "vitest";
import { protocolVersionIn, routingNameIn, type RoutingFacts } from "../../../generator/runtime/core/routing.ts";

describe("routing facts of an envelope", () => {
  const facts: RoutingFacts = {
    protocolVersionHeader: "V",
    methodHeader: "M",
    nameHeader: "N",
    nameParam: { "tools/call": "name" },
    protocolVersionKey: "pv",
  };
  it.each([
    { name: "a routed request", given: { method: "tools/call", id: 1, params: { name: "echo" } }, want: "echo" },
    {
      name: "a notification is never routed",
      given: { method: "tools/call", params: { name: "echo" } },
      want: undefined,
    },
    { name: "an unrouted method", given: { method: "ping", id: 1, params: { name: "echo" } }, want: undefined },
    { name: "a non-string name", given: { method: "tools/call", id: 1, params: { name: 5 } }, want: undefined },
  ])("routingNameIn: $name", ({ given, want }) => {
    expect(routingNameIn(given, facts)).toBe(want);
  });
  it.each([
    { given: { params: { _meta: { pv: "v1" } } }, want: "v1" },
    { given: { params: { _meta: { pv: 1 } } }, want: undefined },
    { given: { params: {} }, want: undefined },
    { given: {}, want: undefined },
  ])("protocolVersionIn($given) is $want", ({ given, want }) => {
    expect(protocolVersionIn(given, "pv")).toBe(want);
  });
});

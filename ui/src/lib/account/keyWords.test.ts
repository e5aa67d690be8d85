import { expect, it } from "vitest";
import { keyRefusal, keyShapeProblem, plainNetwork } from "./keyWords";

it("a key's shape is checked before it is sent", () => {
  expect(keyShapeProblem("ch_live_0123456789abcdef")).toBeNull();
  expect(keyShapeProblem("  ch_live_0123456789abcdef  ")).toBeNull();
  expect(keyShapeProblem("ch_live_0123 456789")).toMatch(/space or a line break/);
  expect(keyShapeProblem("CH_LIVE_0123456789abcdef")).toMatch(/small letters/);
  expect(keyShapeProblem("studio-key-1")).toMatch(/starts with “ch_live_”/);
  expect(keyShapeProblem("ch_live_")).toMatch(/only the start/);
});

it("the service's refusal and a network failure are said as what to do", () => {
  expect(keyRefusal({ code: "unauthorized", message: "401" } as never)).toBe("The service refused this key: check it was copied whole, and that it was not revoked.");
  expect(keyRefusal({ code: "missingScope", message: "", scope: "planner:read" } as never)).toMatch(/lacks a scope .*\(planner:read\)/);
  const raw = { code: "network", message: "error sending request for url (https://nope.invalid/api/v1/balance): client error (Connect): dns error" } as never;
  const plain = plainNetwork(raw, "https://nope.invalid/api/v1");
  expect(plain.message).toBe("Content Desk could not reach nope.invalid. Check the base URL is right and this computer is online, then try again.");
  expect(plain.message).not.toMatch(/dns|client error/);
  expect(plainNetwork({ code: "validation", message: "x" } as never, "https://a").message).toBe("x");
});

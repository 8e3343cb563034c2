import assert from "node:assert/strict";
import { distinctPoints } from "./distinct.ts";

Deno.test("distinctPoints keeps the first wording of each point, in order", () => {
  assert.deepEqual(
    distinctPoints([
      "Try a car-free Sunday first.",
      "Ask the people who live there.",
      "try a car free sunday first",
      "  Try a car-free Sunday first!  ",
      "",
      "Ask the people who live there.",
    ]),
    ["Try a car-free Sunday first.", "Ask the people who live there."],
  );
  assert.deepEqual(distinctPoints([]), []);
  assert.deepEqual(distinctPoints(["Ça va", "ça va."]), ["Ça va"]);
});

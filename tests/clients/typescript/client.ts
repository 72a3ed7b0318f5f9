// A client written against the types openapi-typescript generates from the service's
// OpenAPI document (schema.d.ts, made by the test). It must type-check under --strict:
// commands narrow on their `type`, answers and problem documents are typed, and the
// lines marked @ts-expect-error must be refused.
import type { components, paths } from "./schema";

type Schemas = components["schemas"];
type CommandsPath = paths["/encounters/{encounter_id}/commands"]["post"];
type CommandBody = CommandsPath["requestBody"]["content"]["application/json"];
type Command = CommandBody["command"];
type CommandResult = CommandsPath["responses"][200]["content"]["application/json"];
type Problem = CommandsPath["responses"][409]["content"]["application/problem+json"];
type Created = paths["/encounters"]["post"]["responses"][201]["content"]["application/json"];

export const attack: Command = {
  type: "generic.attack",
  attacker: "aria",
  target: "grak",
  notation: "1d20+5",
  damage: "1d8+3",
};

export const body: CommandBody = { command: attack, manual_dice: [[16], [4]] };

export const resolve: Schemas["AeoniskResolve"] = { type: "aeonisk.resolve" };

export function whoActs(command: Command): string {
  switch (command.type) {
    case "generic.attack":
      return command.attacker; // narrowed by the discriminator
    case "generic.add_combatant":
      return command.id;
    default:
      return command.type;
  }
}

export function versionAfter(answer: CommandResult): number {
  return answer.version;
}

export function currentVersion(problem: Problem): number | undefined {
  return problem.current_version;
}

export function tokenOf(created: Created): string | null | undefined {
  return created.gm_token;
}

export const ifMatch: NonNullable<CommandsPath["parameters"]["header"]>["If-Match"] = '"7"';

// @ts-expect-error hit points are a number, not a string
export const wrongHp: Schemas["GenericAddCombatant"] = { type: "generic.add_combatant", id: "a", name: "A", hp: "7" };

// @ts-expect-error no command has this tag
export const unknownCommand: Command = { type: "generic.fireball" };

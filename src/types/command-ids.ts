/**
 * The ranges of command ids in one attempt, so a trace's commands never collide: the agent's own commands count
 * from `agent` (and an installed agent's observed ones with them), the hidden verify steps from `verify`, the gates
 * from `gate`, and an installed agent's CLI and its set-up command sit at `installedCli` and `installedSetup`.
 */
export const COMMAND_IDS = {
  agent: 1,
  verify: 10_000,
  gate: 20_000,
  installedCli: 100_000,
  installedSetup: 100_002,
} as const;

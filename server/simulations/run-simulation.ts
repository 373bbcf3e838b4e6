import { ownerOrAgentProcedure } from "../trpc/init";
import { runSimulationMeta, ZRunSimulationRequest, ZRunSimulationResponse } from "./run-simulation.types";
import { SIMULATION_SCOPES } from "./simulation.schema";
import { runSimulation } from "./simulation-service";

export const runSimulationRoute = ownerOrAgentProcedure(SIMULATION_SCOPES)
  .meta(runSimulationMeta)
  .input(ZRunSimulationRequest)
  .output(ZRunSimulationResponse)
  .mutation(({ ctx, input, path }) =>
    runSimulation(ctx.db, {
      actor: ctx.actor,
      clock: ctx.clock,
      call: { operation: path, db: () => ctx.db, requestId: ctx.requestId },
      body: input,
    }),
  );

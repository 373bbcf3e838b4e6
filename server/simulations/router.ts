import { router } from "../trpc/init";
import { runSimulationRoute } from "./run-simulation";

export const simulationsRouter = router({
  run: runSimulationRoute,
});

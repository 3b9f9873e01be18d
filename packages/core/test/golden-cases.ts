// The golden scenarios (not a test file): the plan lives in fixtures/golden/plan.json and the code
// in @bt/core/node (golden.ts), shared with `bt regress`.
import { join } from 'node:path';
import { computeGolden as computeScenario, readGoldenPlan, type GoldenScenario } from '@bt/core/node';

export { formatGolden, TRADE_COLUMNS, type GoldenScenario, type GoldenStrategy, type GoldenFile } from '@bt/core/node';

export const plan = readGoldenPlan(join(import.meta.dirname, '../../../fixtures/golden/plan.json'));
export const fixtures = plan.fixtures;
export const goldenDir = plan.dir;
export const SCENARIOS = plan.scenarios;

export const computeGolden = (s: GoldenScenario) => computeScenario(s, fixtures);

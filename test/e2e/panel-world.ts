// One world and one fake model server for a test file that drives the real CLIs: started before
// its tests with the file's script, closed after them.
import { afterAll, beforeAll } from 'vitest';
import { startFakeModelServer, type FakeModelServer, type Script } from '../fakes/model-server/index.js';
import { createWorld, type World } from './harness.js';
import { PANEL_KEY } from './real-cli-panel.js';

export function panelWorld(script: Script): { world: () => World; models: () => FakeModelServer } {
  let world: World | undefined;
  let models: FakeModelServer | undefined;
  beforeAll(async () => {
    models = await startFakeModelServer({ apiKey: PANEL_KEY, script });
    world = await createWorld();
  });
  afterAll(async () => {
    await world?.close();
    await models?.close();
  });
  return { world: () => world!, models: () => models! };
}

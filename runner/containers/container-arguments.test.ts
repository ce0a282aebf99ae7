import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  containerDisplayName,
  createArguments,
  execArguments,
  healthBackoffSeconds,
  healthDecision,
  networkCreateArguments,
  networkName,
  networkPruneArguments,
  parsePorts,
  pathFromConfigEnv,
} from './container-arguments.js';
import { containerDefinitionOf, registryOf, serviceDefinitionsOf } from './container-definition.js';
import { ContainerPaths, jobContainerMounts, parseVolume } from './job-container-paths.js';

const paths = { work: '/r/_work', externals: '/r/externals', temp: '/r/_work/_temp', actions: '/r/_work/_actions', tools: '/r/_work/_tool' };

describe('container definitions', () => {
  it('reads a bare image and a full mapping; a blank image is no container', () => {
    assert.deepEqual(containerDefinitionOf('node:20', 'container'), { image: 'node:20', options: '', env: {}, ports: [], volumes: [] });
    assert.equal(containerDefinitionOf({ image: '' }, 'container'), undefined);
    assert.deepEqual(
      containerDefinitionOf({ image: 'ghcr.io/o/i:1', options: '--cpus 1', env: { A: '1', N: 2 }, ports: [80, '8080:80'], volumes: ['/data:/data:ro'], credentials: { username: 'u', password: 'p' } }, 'container'),
      { image: 'ghcr.io/o/i:1', options: '--cpus 1', env: { A: '1', N: '2' }, ports: ['80', '8080:80'], volumes: ['/data:/data:ro'], credentials: { username: 'u', password: 'p' } },
    );
    assert.throws(() => containerDefinitionOf(['x'], 'container'), /container: a string or a mapping was expected/);
  });

  it('reads services by name, leaving out blank images', () => {
    const services = serviceDefinitionsOf({ redis: { image: 'redis:7', ports: ['6379'] }, off: { image: '' }, pg: 'postgres' });
    assert.deepEqual([...services.keys()], ['redis', 'pg']);
    assert.deepEqual(services.get('redis')?.ports, ['6379']);
  });

  it('finds the registry of an image for docker login', () => {
    assert.equal(registryOf('ghcr.io/owner/image:1'), 'ghcr.io');
    assert.equal(registryOf('localhost:5000/image'), 'localhost:5000');
    assert.equal(registryOf('library/redis'), '');
    assert.equal(registryOf('redis'), '');
  });
});

describe('job container paths', () => {
  it('translates the runner directories as the runner maps them', () => {
    const translate = new ContainerPaths(paths);
    assert.equal(translate.toContainer('/r/_work/widgets/widgets'), '/__w/widgets/widgets');
    assert.equal(translate.toContainer('/r/_work/_temp/_runner_file_commands/set_env_1'), '/__w/_temp/_runner_file_commands/set_env_1');
    assert.equal(translate.toContainer('/r/_work/_temp/_github_home'), '/github/home');
    assert.equal(translate.toContainer('/r/_work/_temp/_github_workflow/event.json'), '/github/workflow/event.json');
    assert.equal(translate.toContainer('/r/externals/node20/bin/node'), '/__e/node20/bin/node');
    assert.equal(translate.toContainer('/r/_workshop'), '/r/_workshop');
    assert.equal(translate.toContainer('plain value'), 'plain value');
    assert.equal(translate.toHost('/__w/widgets/widgets/a.txt'), '/r/_work/widgets/widgets/a.txt');
    assert.equal(new ContainerPaths({ ...paths, tools: '/opt/hostedtoolcache' }).toContainer('/opt/hostedtoolcache/go'), '/__t/go');
  });

  it('mounts the runner directories, externals read-only', () => {
    assert.deepEqual(jobContainerMounts(paths, new ContainerPaths(paths)), [
      { source: '/var/run/docker.sock', target: '/var/run/docker.sock' },
      { source: '/r/_work', target: '/__w' },
      { source: '/r/externals', target: '/__e', readOnly: true },
      { source: '/r/_work/_temp', target: '/__w/_temp' },
      { source: '/r/_work/_actions', target: '/__w/_actions' },
      { source: '/r/_work/_tool', target: '/__w/_tool' },
      { source: '/r/_work/_temp/_github_home', target: '/github/home' },
      { source: '/r/_work/_temp/_github_workflow', target: '/github/workflow' },
    ]);
  });

  it('parses user volumes as the runner does', () => {
    assert.deepEqual(parseVolume('/src:/dst:ro'), { source: '/src', target: '/dst', readOnly: true });
    assert.deepEqual(parseVolume('/src:/dst'), { source: '/src', target: '/dst' });
    assert.deepEqual(parseVolume('/dst:ro'), { source: '', target: '/dst', readOnly: true });
    assert.deepEqual(parseVolume('/anonymous'), { source: '', target: '/anonymous' });
  });
});

describe('engine command lines', () => {
  it('creates and prunes the job network', () => {
    assert.equal(networkName('0F8FAD5B-D9CB-469F-A165-70867728950E'), 'github_network_0f8fad5bd9cb469fa16570867728950e');
    assert.deepEqual(networkCreateArguments('github_network_x', 'abc123'), ['network', 'create', '--label', 'abc123', 'github_network_x']);
    assert.deepEqual(networkPruneArguments('abc123'), ['network', 'prune', '--force', '--filter', 'label=abc123']);
  });

  it('creates a service container with alias, ports, options, env names and volumes', () => {
    assert.deepEqual(
      createArguments({
        name: containerDisplayName('redis', 'redis:7', 'a1b2c3'),
        label: 'abc123',
        image: 'redis:7',
        network: 'github_network_x',
        networkAlias: 'redis',
        ports: ['6379/tcp'],
        options: '--health-cmd "redis-cli ping" --health-interval 10s',
        environment: ['PASSWORD'],
        mounts: [parseVolume('/data:/data')],
        entrypointArgs: [],
      }),
      ['create', '--name', 'redis_redis7_a1b2c3', '--label', 'abc123', '--network', 'github_network_x', '--network-alias', 'redis', '-p', '6379/tcp',
        '--health-cmd', 'redis-cli ping', '--health-interval', '10s', '-e', 'PASSWORD', '-e', 'GITHUB_ACTIONS=true', '-e', 'CI=true', '-v', '/data:/data', 'redis:7'],
    );
  });

  it('creates the job container kept alive by tail, CI left to the user when set', () => {
    const args = createArguments({
      name: 'job_node20_a1b2c3',
      label: 'abc123',
      image: 'node:20',
      workdir: '/__w/widgets/widgets',
      network: 'github_network_x',
      ports: [],
      options: '',
      environment: ['CI', 'HOME'],
      mounts: [{ source: '/r/externals', target: '/__e', readOnly: true }],
      entrypoint: 'tail',
      entrypointArgs: ['-f', '/dev/null'],
    });
    assert.deepEqual(args, ['create', '--name', 'job_node20_a1b2c3', '--label', 'abc123', '--workdir', '/__w/widgets/widgets', '--network', 'github_network_x',
      '-e', 'CI', '-e', 'HOME', '-e', 'GITHUB_ACTIONS=true', '-v', '/r/externals:/__e:ro', '--entrypoint', 'tail', 'node:20', '-f', '/dev/null']);
  });

  it('executes a step in the job container with env names only', () => {
    assert.deepEqual(execArguments({ containerId: 'c0ffee', workdir: '/__w/w/w', environment: ['GITHUB_ENV', 'SECRET'], program: '/usr/bin/bash', args: ['-e', '/__w/_temp/x.sh'] }), [
      'exec', '-i', '--workdir', '/__w/w/w', '-e', 'GITHUB_ENV', '-e', 'SECRET', 'c0ffee', '/usr/bin/bash', '-e', '/__w/_temp/x.sh',
    ]);
  });

  it('reads ports and PATH back from the engine', () => {
    assert.deepEqual(parsePorts(['6379/tcp -> 0.0.0.0:32768', '6379/tcp -> [::]:32768', '53/udp -> 127.0.0.1:40001', 'garbage']), { '6379': '32768', '53': '40001' });
    assert.equal(pathFromConfigEnv(['HOME=/root', 'PATH=/usr/local/bin:/usr/bin', '']), '/usr/local/bin:/usr/bin');
    assert.equal(pathFromConfigEnv(['HOME=/root']), '');
  });
});

describe('service health', () => {
  it('decides from the inspected status as the runner does', () => {
    assert.equal(healthDecision(''), 'no-healthcheck');
    assert.equal(healthDecision(undefined), 'no-healthcheck');
    assert.equal(healthDecision('starting'), 'wait');
    assert.equal(healthDecision('"healthy"'), 'healthy');
    assert.equal(healthDecision('unhealthy'), 'unhealthy');
  });

  it('backs off exponentially from 2 to 32 seconds', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 9].map(healthBackoffSeconds), [2, 4, 8, 16, 32, 32, 32]);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../server/src/core/config.js';
import { loadConcurrency } from '../server/src/gateway/gateway.js';
import { isHandlerFile } from '../server/src/gateway/handlers/handler-loader.js';
import { loadQuerySetup } from '../server/src/query/sources.js';
import { makeWorkspace, removeWorkspace, startServer } from '../server/src/test-support/workspace.js';

const dir = path.join(import.meta.dirname, 'kubernetes');
const manifests = ['deployment.yaml', 'service.yaml', 'settings.yaml'].flatMap((file) =>
  parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8')).map(
    (document) => document.toJS() as { kind: string },
  ),
);
const models = { Deployment, Service, ConfigMap } as const;
const deployment = manifests.find((m) => m.kind === 'Deployment') as Deployment;
const container = deployment.spec!.template.spec!.containers[0];
const settings = (manifests.find((m) => m.kind === 'ConfigMap') as ConfigMap).data!;
/** What the kubelet puts in a pod's `status.podIP` (one from Kubernetes' documentation range). */
const podIp = '10.244.1.17';
const valueOf = (variable: NonNullable<typeof container.env>[number], earlier: Record<string, string>) =>
  // Kubernetes expands $(NAME) of a variable defined earlier in the list.
  variable.value?.replace(/\$\(([A-Z_]+)\)/g, (whole, name: string) => earlier[name] ?? whole) ??
  (variable.valueFrom?.configMapKeyRef
    ? settings[variable.valueFrom.configMapKeyRef.key]
    : variable.valueFrom?.fieldRef?.fieldPath === 'status.podIP'
      ? podIp
      : 'secret-from-the-cluster');
/** The container's environment, ConfigMap references and $(NAME) resolved. */
const env: Record<string, string> = {};
for (const variable of container.env!) env[variable.name] = valueOf(variable, env);

describe('Kubernetes manifests', () => {
  it.each(manifests.map((m) => [m.kind, m]))('%s is valid against the Kubernetes schema', (kind, manifest) => {
    const Model = models[kind as keyof typeof models];
    expect(Model).toBeDefined();
    expect(() => new Model(manifest as never).validate()).not.toThrow();
  });

  it('probes the actuator endpoints, which answer without credentials when auth is on', async () => {
    const workspace = makeWorkspace();
    const users = path.join(workspace, 'users');
    fs.writeFileSync(users, '');
    const app = await startServer(workspace, {
      AUTH_ENABLED: 'true',
      AUTH_USERS_FILE: users,
      ALLOWED_HOSTS: env.ALLOWED_HOSTS,
    });
    try {
      for (const probe of [container.readinessProbe!, container.livenessProbe!]) {
        // The kubelet sends the pod's IP and port as Host.
        const response = await app.inject({ url: probe.httpGet!.path!, headers: { host: `${podIp}:8080` } });
        expect(response.statusCode).toBe(200);
      }
      // So does a client of the Service; another name is refused.
      const service = { host: 'adaptive-gateway.tools.svc.cluster.local' };
      expect((await app.inject({ url: container.livenessProbe!.httpGet!.path!, headers: service })).statusCode).toBe(
        200,
      );
      const other = { host: 'attacker.example' };
      expect((await app.inject({ url: container.livenessProbe!.httpGet!.path!, headers: other })).statusCode).toBe(421);
    } finally {
      await app.close();
      removeWorkspace(workspace);
    }
  });

  it('sets only variables the server reads, with values it accepts, and enforces authentication', () => {
    expect(env.AUTH_ENABLED).toBe('true');
    const config = loadConfig(env, {});
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      specsDir: '/config/specs',
      handlersDir: '/config/handlers',
      authEnabled: true,
    });
    expect(config.auth.issuer).toBe('https://keycloak.example.com/auth/realms/platform');
  });

  it('keeps async jobs in a store every replica shares', () => {
    expect(deployment.spec!.replicas).toBeGreaterThan(1);
    expect(loadConfig(env, {}).queryJobs.store.kind).not.toBe('folder');
  });

  it("mounts a sources.yaml that loads where the server reads it, from the kustomization's ConfigMap", () => {
    const kustomization = parseAllDocuments(
      fs.readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8'),
    )[0].toJS() as {
      configMapGenerator: { name: string; files: string[] }[];
    };
    const generator = kustomization.configMapGenerator.find((g) => g.name === 'adaptive-gateway-query')!;
    expect(generator.files.map((file) => path.basename(file))).toEqual(['sources.yaml']);
    expect(loadQuerySetup(path.join(dir, generator.files[0])).sources.length).toBeGreaterThan(0);
    const volume = deployment.spec!.template.spec!.volumes!.find((v) => v.configMap?.name === generator.name)!;
    const mount = container.volumeMounts!.find((m) => m.name === volume.name)!;
    expect(mount).toMatchObject({ subPath: 'sources.yaml', readOnly: true });
    expect(mount.mountPath).toBe(loadConfig(env, {}).querySources);
  });

  it('mounts the specs and handlers ConfigMaps as whole directories, so updates reach the watcher', () => {
    const mounts = container.volumeMounts!;
    expect(mounts.find((m) => m.mountPath === '/config/specs')).toMatchObject({ name: 'specs', readOnly: true });
    expect(mounts.filter((m) => ['specs', 'handlers'].includes(m.name)).every((m) => m.subPath === undefined)).toBe(
      true,
    );
    const volumes = deployment.spec!.template.spec!.volumes!;
    expect(volumes.find((v) => v.name === 'specs')!.configMap!.name).toBe('adaptive-gateway-specs');
    expect(volumes.find((v) => v.name === 'handlers')!.configMap!.name).toBe('adaptive-gateway-handlers');
  });

  it(
    'limits memory to at least the sum of the bounds inside: main heap, spec loader workers, DuckDB queries, ' +
      'handler processes, and headroom',
    () => {
      const mib = (size: string) => {
        const match = /^(\d+(?:\.\d+)?)\s*(KB|MB|GB|KiB|MiB|GiB|Ki|Mi|Gi)$/i.exec(size)!;
        const unit = match[2].toLowerCase().replace(/i?b$/, '').replace(/i$/, '');
        return Number(match[1]) * { k: 1 / 1024, m: 1, g: 1024 }[unit as 'k' | 'm' | 'g']!;
      };
      const mainHeap = Number(/--max-old-space-size=(\d+)/.exec(env.NODE_OPTIONS ?? '')?.[1]);
      expect(mainHeap).toBeGreaterThan(0);
      const specWorkers = loadConcurrency * loadConfig(env, {}).specMaxHeapMb;
      // The image ships the example workspace's query/sources.yaml; its limits are DuckDB's per query.
      const { limits } = loadQuerySetup(path.join(import.meta.dirname, '..', 'query', 'sources.yaml'));
      const duckdb = limits.maxConcurrent * mib(limits.memoryLimit);
      // Each TypeScript handler module of the example workspace runs in a process of its own, plus one spare.
      const handlerModules = fs
        .readdirSync(path.join(import.meta.dirname, '..', 'handlers'))
        .filter(isHandlerFile).length;
      const handlerProcesses = (handlerModules + 1) * 2 * loadConfig(env, {}).handlerMemoryMb;
      const headroomMib = 256; // Node and DuckDB outside their heaps: code, native buffers, thread stacks.
      expect(mib(container.resources!.limits!.memory as string)).toBeGreaterThanOrEqual(
        mainHeap + specWorkers + duckdb + handlerProcesses + headroomMib,
      );
      expect(mib(container.resources!.requests!.memory as string)).toBeLessThanOrEqual(
        mib(container.resources!.limits!.memory as string),
      );
    },
  );
});

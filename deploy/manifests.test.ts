import fs from 'node:fs';
import path from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../server/src/config.js';
import { makeWorkspace, removeWorkspace, startServer } from '../server/src/test-support/workspace.js';

const dir = path.join(import.meta.dirname, 'kubernetes');
const manifests = ['deployment.yaml', 'service.yaml', 'settings.yaml'].flatMap((file) =>
  parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8')).map((document) => document.toJS() as { kind: string }),
);
const models = { Deployment, Service, ConfigMap } as const;
const deployment = manifests.find((m) => m.kind === 'Deployment') as Deployment;
const container = deployment.spec!.template.spec!.containers[0];

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
    const app = await startServer(workspace, { AUTH_ENABLED: 'true', AUTH_USERS_FILE: users });
    try {
      for (const probe of [container.readinessProbe!, container.livenessProbe!]) {
        const response = await app.inject({ url: probe.httpGet!.path! });
        expect(response.statusCode).toBe(200);
      }
    } finally {
      await app.close();
      removeWorkspace(workspace);
    }
  });

  it('sets only variables the server reads, with values it accepts, and enforces authentication', () => {
    const settings = (manifests.find((m) => m.kind === 'ConfigMap') as ConfigMap).data!;
    const valueOf = (variable: NonNullable<typeof container.env>[number]) =>
      variable.value ?? (variable.valueFrom?.configMapKeyRef ? settings[variable.valueFrom.configMapKeyRef.key] : 'secret-from-the-cluster');
    const env = Object.fromEntries(container.env!.map((variable) => [variable.name, valueOf(variable)]));
    expect(env.AUTH_ENABLED).toBe('true');
    const config = loadConfig(env, {});
    expect(config).toMatchObject({ host: '0.0.0.0', port: 8080, specsDir: '/config/specs', handlersDir: '/config/handlers', authEnabled: true });
    expect(config.auth.issuer).toBe('https://keycloak.example.com/auth/realms/platform');
  });

  it('mounts the specs and handlers ConfigMaps as whole directories, so updates reach the watcher', () => {
    const mounts = container.volumeMounts!;
    expect(mounts.find((m) => m.mountPath === '/config/specs')).toMatchObject({ name: 'specs', readOnly: true });
    expect(mounts.every((m) => m.subPath === undefined)).toBe(true);
    const volumes = deployment.spec!.template.spec!.volumes!;
    expect(volumes.find((v) => v.name === 'specs')!.configMap!.name).toBe('adaptive-gateway-specs');
    expect(volumes.find((v) => v.name === 'handlers')!.configMap!.name).toBe('adaptive-gateway-handlers');
  });
});

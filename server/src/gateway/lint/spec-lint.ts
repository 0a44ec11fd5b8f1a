import path from 'node:path';
import type { SpecLintFinding } from '../../contract/index.js';
import type { Logger } from '../../core/logger.js';
import type { Gateway } from '../gateway.js';
import { ReloadFollower } from '../reload-follower.js';
import type { WorkspaceUnit } from '../route-table.js';
import { LintPool } from './lint-pool.js';
import { findRulesetFile } from './ruleset-file.js';
import type { LintFinding } from './spectral-linter.js';

/** What `lint` events carry: the findings of one spec file, after each of its loads. */
export interface SpecLintResult {
  file: string;
  findings: LintFinding[];
  /** Why the file could not be linted (time or memory bound, a broken ruleset). */
  error?: string;
}

/**
 * Lints the workspace's specs after each reload, off the request path: the gateway is ready and serving before
 * any lint starts, and only specs whose loaded version changed since their last lint are linted again. Findings
 * are logged and kept per file; they never stop a spec from serving.
 */
export class SpecLint extends ReloadFollower<SpecLintResult> {
  private readonly pool = new LintPool();
  private readonly linted = new Map<string, WorkspaceUnit>();
  private readonly results = new Map<string, SpecLintResult>();

  constructor(
    gateway: Gateway,
    private readonly workspaceDir: string,
    private readonly specsDir: string,
    private readonly log: Logger,
  ) {
    super(gateway);
  }

  /** The latest findings of every linted spec, by file name. */
  get findings(): SpecLintResult[] {
    return [...this.results.values()];
  }

  /** The latest findings of every linted spec as one list, each naming its spec file (the refresh answer's). */
  get flatFindings(): SpecLintFinding[] {
    return this.findings.flatMap(({ file, findings }) =>
      findings.map(({ line, column, severity, rule, message }) => ({ file, line, column, severity, rule, message })),
    );
  }

  /** Stops linting and ends the worker. */
  override close(): void {
    super.close();
    this.pool.close();
  }

  protected followReload(): void {
    const specs = this.gateway.loadedUnits.filter((u) => u.kind === 'spec');
    const current = new Set(specs.map((u) => u.file));
    for (const file of [...this.results.keys()]) if (!current.has(file)) this.results.delete(file);
    for (const file of [...this.linted.keys()]) if (!current.has(file)) this.linted.delete(file);
    const changed = specs.filter((unit) => this.linted.get(unit.file) !== unit);
    for (const unit of changed) this.linted.set(unit.file, unit);
    this.queue(() => this.lintAll(changed));
  }

  private async lintAll(units: WorkspaceUnit[]): Promise<void> {
    if (units.length === 0) return;
    const rulesetFile = await findRulesetFile(this.workspaceDir);
    for (const unit of units) {
      // A newer version loaded meanwhile is linted by its own reload.
      if (this.linted.get(unit.file) !== unit) continue;
      const result = await this.pool.lint(path.join(this.specsDir, unit.file), this.specsDir, rulesetFile).then(
        (findings): SpecLintResult => ({ file: unit.file, findings }),
        (error: Error): SpecLintResult => ({ file: unit.file, findings: [], error: error.message }),
      );
      this.report(result);
    }
  }

  private report(result: SpecLintResult): void {
    this.results.set(result.file, result);
    if (result.error) this.log.warn({ file: result.file }, `cannot lint ${result.file}: ${result.error}`);
    const counts = { error: 0, warning: 0, info: 0, hint: 0 };
    for (const f of result.findings) counts[f.severity]++;
    if (result.findings.length > 0)
      this.log.info(
        { file: result.file, ...counts, findings: result.findings.slice(0, 50) },
        `lint ${result.file}: ${counts.error} errors, ${counts.warning} warnings`,
      );
    this.emit(result);
  }
}

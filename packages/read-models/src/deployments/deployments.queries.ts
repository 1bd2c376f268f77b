import { sql, type Statements } from '@earshot/db';
import { newestFirst, type Paging } from '@earshot/server';

export interface DeploymentRow {
  id: string;
  agent: string;
  version: string;
  deployed_at: Date;
  previous_version: string | null;
  environment: string | null;
  description: string | null;
  deployed_by: string | null;
}

const COLUMNS = sql`id, agent, version, deployed_at, previous_version, environment, description, deployed_by`;

/** A page of the tenant's deployments, newest first (the index's order), `agent` optional. */
export async function deploymentRows(tx: Statements, filter: { agent?: string | undefined }, paging: Paging): Promise<DeploymentRow[]> {
  const keyset = newestFirst('deployed_at', 'id', paging);
  const byAgent = filter.agent === undefined ? sql`true` : sql`agent = ${filter.agent}`;
  return (await tx.query(sql`select ${COLUMNS} from deployments where ${keyset.where} and ${byAgent} ${keyset.order} ${keyset.window}`)) as DeploymentRow[];
}

/** The tenant's deployment of that id, or undefined. */
export async function deploymentRow(tx: Statements, id: string): Promise<DeploymentRow | undefined> {
  const [row] = (await tx.query(sql`select ${COLUMNS} from deployments where id = ${id}`)) as DeploymentRow[];
  return row;
}

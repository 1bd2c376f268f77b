import type { RequestOptions } from '../http.js';
import type { WriteResult, Deployment, DeploymentImpact, DeploymentImpactParams, DeploymentCreateParams, DeploymentListParams, Success } from '../models.js';
import type { PagedList } from '../pagination.js';
import { Resource, segment } from './resource.js';

/** `earshot.deployments`: agent releases, and what each did to the calls after it. */
export class Deployments extends Resource {
  /** Deployments, newest first, filtered by `agent`. */
  list(params: DeploymentListParams = {}, options?: RequestOptions): PagedList<Deployment> {
    return this.paged('/deployments', params, options);
  }

  /** Records a deployment. */
  create(deployment: DeploymentCreateParams, options?: RequestOptions): Promise<WriteResult> {
    return this.send('POST', '/deployments', deployment, options);
  }

  /** One deployment; NotFoundError when the tenant has no such deployment. */
  async retrieve(id: string, options?: RequestOptions): Promise<Deployment> {
    return (await this.read<Success<'/api/v1/deployments/{id}', 'get'>>(`/deployments/${segment(id)}`, undefined, options)).deployment;
  }

  /** Did this release make the agent slower, fail more or sound worse? Metrics before and after, with significance. */
  impact(id: string, params: DeploymentImpactParams = {}, options?: RequestOptions): Promise<DeploymentImpact> {
    return this.read(`/deployments/${segment(id)}/impact`, params, options);
  }
}

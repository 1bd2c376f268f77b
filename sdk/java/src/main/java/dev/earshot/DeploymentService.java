package dev.earshot;

import dev.earshot.errors.ApiException;
import dev.earshot.models.Deployment;
import dev.earshot.models.DeploymentCreateParams;
import dev.earshot.models.DeploymentImpact;
import dev.earshot.models.DeploymentImpactParams;
import dev.earshot.models.DeploymentListParams;
import dev.earshot.models.WriteResult;

/** Agent releases and their impact: /deployments. */
public final class DeploymentService {
  private final Transport transport;

  DeploymentService(Transport transport) {
    this.transport = transport;
  }

  /** The deployments that match params (null for all), newest first. */
  public PagedList<Deployment> list(DeploymentListParams params) {
    return new PagedList<>(transport, "/deployments", params, Deployment.class);
  }

  /** Records a deployment of an agent version. */
  public WriteResult create(DeploymentCreateParams params) {
    return transport.call("POST", "/deployments", null, params, WriteResult.class, RequestOptions.NONE);
  }

  /**
   * One deployment. The API has no route for one deployment, so this reads
   * the list until it finds it, and throws a NotFoundException when it is not there.
   */
  public Deployment retrieve(String id) {
    for (Deployment deployment : list(DeploymentListParams.builder().limit(200).build())) {
      if (deployment.id().equals(id)) return deployment;
    }
    throw ApiException.of(404, "NOT_FOUND", "no deployment with id " + id, null, null, null);
  }

  /** The agent's metrics and outcomes before and after a deployment. */
  public DeploymentImpact impact(String id, DeploymentImpactParams params) {
    return transport.call("GET", Transport.path("/deployments/%s/impact", id), params, null, DeploymentImpact.class, RequestOptions.NONE);
  }
}

import { useEffect, useMemo, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import type { RunConfig } from '../../core/config/run-config';
import type { CostEstimate } from '../../worker/api-types';
import { effectiveOptimizer, runEnvironment, useApp } from '../../store/app-store';
import { estimatedEffort } from '../../core/config/capabilities';
import { chargedPrices, tierPriceFactor } from '../../core/config/service-tier';

/**
 * The run's estimate from the worker, asked again a moment after the settings, the skill or the
 * connection change; and the same run at list prices when a service tier or the batch API
 * lowers them, so the estimate can say what they save.
 */
export function useEstimate(
  datasetId: string | null,
  config: RunConfig,
): { estimate: CostEstimate | null; listCost: number | null } {
  const skill = useApp((s) => s.skill);
  const connection = useApp((s) => s.connection);
  const triggerQueries = useApp((s) => s.triggerQueries?.queries);
  const environmentModule = useApp((s) => s.environmentModule);
  const mcp = useApp((s) => s.mcp);
  const [estimate, setEstimate] = useState<CostEstimate | null>(null);
  const [listCost, setListCost] = useState<number | null>(null);
  const prices = useMemo(() => chargedPrices(connection.prices, connection), [connection]);
  const listPrices = useMemo(() => {
    const { target, optimizer } = connection;
    const tiered = [target, optimizer].some((e) => tierPriceFactor(e.serviceTier) !== 1);
    return tiered || target.batchApi
      ? chargedPrices(connection.prices, {
          target: { ...target, serviceTier: undefined },
          optimizer: { ...optimizer, serviceTier: undefined },
        })
      : null;
  }, [connection]);
  // The run's environment as a run made now would take it: its module or its MCP servers.
  const environment = useMemo(() => runEnvironment({ environmentModule, mcp }), [environmentModule, mcp]);

  useEffect(() => {
    if (!datasetId) return;
    const t = setTimeout(() => {
      const asked = {
        datasetId,
        config,
        skill,
        reasoning: {
          target: estimatedEffort(connection.target),
          optimizer: estimatedEffort(effectiveOptimizer(connection)),
        },
        ...(triggerQueries ? { triggerQueries } : {}),
        ...(environment ? { environment } : {}),
      };
      const { target } = connection;
      void trainer()
        .estimateCost({
          ...asked,
          target,
          prices: {
            ...(prices.target ? { target: prices.target } : {}),
            ...(prices.optimizer ? { optimizer: prices.optimizer } : {}),
          },
        })
        .then((r) => setEstimate(r.ok ? r.estimate : null));
      // The same run at list prices: no service tier, no batch API.
      if (listPrices)
        void trainer()
          .estimateCost({ ...asked, target: { ...target, batchApi: undefined }, prices: listPrices })
          .then((r) => setListCost(r.ok ? r.estimate.totalCostUsd : null));
      else setListCost(null);
    }, 250);
    return () => clearTimeout(t);
  }, [datasetId, config, skill, prices, listPrices, connection, triggerQueries, environment]);
  return { estimate, listCost };
}

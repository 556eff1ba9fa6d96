import { useEffect, useMemo, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import { tierPriceFactor } from '../../core/config/service-tier';
import { splitTriggerQueries } from '../../core/dataset/trigger-queries';
import type { RunConfig } from '../../core/config/run-config';
import type { CostEstimate } from '../../worker/api-types';
import { effectiveOptimizer, useApp } from '../../store/app-store';
import { estimatedEffort } from '../../core/config/capabilities';
import { chargedPrices } from '../../core/config/service-tier';

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
  const triggerQueries = useApp((s) => s.triggerQueries);
  const environmentModule = useApp((s) => s.environmentModule?.module);
  const [estimate, setEstimate] = useState<CostEstimate | null>(null);
  const [listCost, setListCost] = useState<number | null>(null);
  const prices = useMemo(() => chargedPrices(connection.prices, connection), [connection]);
  const batchOneShot = Boolean(connection.target.batchApi);
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
  // The activation track's queries per split, as the run will split them (same seed, same counts).
  const triggers = useMemo(() => {
    if (!triggerQueries) return undefined;
    const s = splitTriggerQueries(triggerQueries.queries, config.seed);
    return { train: s.train.length, val: s.val.length, test: s.test.length };
  }, [triggerQueries, config.seed]);

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
        ...(triggers ? { triggers } : {}),
        ...(environmentModule ? { environment: { module: environmentModule } } : {}),
      };
      void trainer()
        .estimateCost({
          ...asked,
          batchOneShot,
          prices: {
            ...(prices.target ? { target: prices.target } : {}),
            ...(prices.optimizer ? { optimizer: prices.optimizer } : {}),
          },
        })
        .then((r) => setEstimate(r.ok ? r.estimate : null));
      if (listPrices)
        void trainer()
          .estimateCost({ ...asked, prices: listPrices })
          .then((r) => setListCost(r.ok ? r.estimate.totalCostUsd : null));
      else setListCost(null);
    }, 250);
    return () => clearTimeout(t);
  }, [datasetId, config, skill, prices, listPrices, batchOneShot, triggers, environmentModule, connection]);
  return { estimate, listCost };
}

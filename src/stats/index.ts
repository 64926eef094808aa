export { wilson, Z95, type Interval } from './wilson.js';
export { mean, percentile, percentileOfSorted } from './descriptive.js';
export { mulberry32, hashString } from './random.js';
export { bootstrapPercentiles, medianDifference, DEFAULT_BOOTSTRAP, type BootstrapOptions } from './bootstrap.js';
export { newcombePaired, pairedCounts, type PairedCounts, type PairedDifference } from './newcombe.js';
export { passAtK, passHatK, passAtKCurve, type PassAtK } from './pass-at-k.js';
export { binomialHalfCdf } from './binomial.js';
export { mcnemarExact, type McNemarResult } from './mcnemar.js';
export { wilcoxonSignedRank, type WilcoxonResult } from './wilcoxon.js';
export { holm } from './holm.js';
export { erfc, normalUpperTail } from './normal.js';
export {
  connorPairs,
  mcnemarMde,
  mcnemarPower,
  normalQuantileUpper,
  standardDeviation,
  wilcoxonMde,
  wilcoxonPairs,
} from './power.js';
export { signMixtureBoundary, signMixtureEValue } from './sequential.js';

/**
 * The case function of a contract suite for its fault features: `featureGate(it, features)`
 * gives `withFeature(feature)`, which is `it` when the fixture declared `feature` and `it.skip`
 * otherwise, so a case whose fault a backend cannot inject is reported skipped, never passed.
 * It takes the runner's `it`, so this package loads no test runner.
 */
export function featureGate<Feature extends string, It extends { skip: unknown }>(
  it: It,
  features: readonly Feature[],
): (feature: Feature) => It | It['skip'] {
  return (feature) => (features.includes(feature) ? it : it.skip);
}

// Package agreement bundles the models of M. Hendriks, "Model Checking the
// Time to Reach Agreement" (FORMATS 2005), reconstructed in
// shared/design/seed-models.md, so that `tcheck verify agreement` works with
// no file at hand:
//
//   - timeout: the timeout task of Attiya, Dwork, Lynch and Stockmeyer
//     (paper Sect. 4), properties (1) A1 and (2) A2;
//   - agreement: the abstract agreement algorithm (paper Sect. 5), properties
//     (3)-(7) and the exact worst-case time to agreement (`worst-time`),
//     with dead values normalised (variables reset once nothing can read
//     them), which shrinks its zone graph 10 to 40 times;
//   - agreement-literal: the same model exactly as seed-models.md 4 gives
//     it, without the normalisation; normalise_test.go checks that both
//     reach the same discrete states up to the dead values and give the
//     same answers;
//   - the faulty variants (seed-models.md 3.9 and 4.10), each a patch over
//     its base model with the verdicts it must produce.
//
// The models are YAML files in this directory, embedded in the binary. A
// mutant file names its base, lists text replacements (each must apply
// exactly once, so a mutant cannot silently stop mutating), optional new
// parameter defaults and the expected verdicts that differ from the base.
package agreement

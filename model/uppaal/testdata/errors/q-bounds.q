// a bounds query
bounds{P.b}: x

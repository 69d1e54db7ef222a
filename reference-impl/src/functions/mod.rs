//! Built-in functions, modelled on cty's `function.Function`.

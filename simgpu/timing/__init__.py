"""Timing model (cycle-approximate), fed by the functional engine's ExecutionTrace."""

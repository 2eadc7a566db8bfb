"""Card model, rules engines, effect interpreter, AI players, simulation and statistics. Never imports pipeline."""

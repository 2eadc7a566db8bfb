"""Fitted weights of the Grave Feast gate agent (engine/gf/gate.py). "bias": added to greedy's
score of an action, by its op code (engine/gf/state.py, END=0 .. TRIM=23), at two players;
"bias_multi": the same at three or more players; "rares": (rival
family threat from which a Devil Wife is played from the hand rather than placed, rival visible
monsters from which an Exorcist blasts rather than going into the mash). Tuned by
bench/tune_gate.py (paired play against greedy).
"""

WEIGHTS: dict[str, tuple[float, ...]] = {
    'bias': (-2.3, 9.88, 0.4551, 1.022, 2.881, -3.352, 4.92, 0.03507, -0.1283, -3.81, -0.4296, -0.1444, -3.367, -1.304, -0.04763, -5.951, 1.333, 1.662, -2.41, -0.01985, -3.454, -0.6803, -4.364, 1.801),
    'rares': (8, 3),
    'bias_multi': (3.948, 24.7, 6.029, 9.779, 3.336, -1.962, 2.481, 3.169, -17.03, -2.145, -0.5148, 26.36, -3.522, -2.809, 5.073, -7.317, -1.256, 1.807, 4.359, 3.622, -8.256, -1.659, -3.76, 5.508),
}

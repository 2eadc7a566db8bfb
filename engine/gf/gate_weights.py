"""Fitted weights of the Grave Feast gate agent (engine/gf/gate.py). "bias": added to greedy's
score of an action, by its op code (engine/gf/state.py, END=0 .. TRIM=23), at two players;
"bias_multi": the same at three or more players; "rares": (rival
family threat from which a Devil Wife is played from the hand rather than placed, rival visible
monsters from which an Exorcist blasts rather than going into the mash). Tuned by
bench/tune_gate.py (paired play against greedy).
"""

WEIGHTS: dict[str, tuple[float, ...]] = {
    'bias': (0.05486, 9.788, 2.47, -0.7298, 0.09395, -1.424, 4.572, -2.892, -2.826, -10.88, 0.9076, 1.69, -29.42, -0.8378, -2.908, -3.285, 1.453, -0.8878, -0.8512, -0.492, -10.41, 1.113, -1.142, 0.484),
    'rares': (8, 3),
    'bias_multi': (3.948, 24.7, 6.029, 9.779, 3.336, -1.962, 2.481, 3.169, -17.03, -2.145, -0.5148, 26.36, -3.522, -2.809, 5.073, -7.317, -1.256, 1.807, 4.359, 3.622, -8.256, -1.659, -3.76, 5.508),
}

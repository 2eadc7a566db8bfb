"""Devil Wife and Exorcist (GF-20..GF-28): not playable yet."""

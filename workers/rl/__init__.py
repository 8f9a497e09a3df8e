"""A training environment per game over the domain's own rules (``pip install cardroom[rl]``):
the PettingZoo AEC API (``workers.rl.env``), observations from a seat's view
(``workers.rl.observe``), a fixed action space with a legal-action mask
(``workers.rl.spaces``), and a bot that plays any policy over them (``workers.rl.bot``)."""

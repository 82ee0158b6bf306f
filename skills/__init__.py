"""Skills: abilities shijie builds from the curated corpus.

``skills.registry`` discovers them (``skills/*/SKILL.md`` and the ``shijie.skills`` entry points) and
says where each stands against the corpus' domain mastery; ``skills.learning`` learns and invokes
them; ``skills.export`` writes one as an Agent Skills folder. Each skill lives in its own sub-package.
"""

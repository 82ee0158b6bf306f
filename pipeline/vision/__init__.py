"""The Vision, learned: what shijie reads off a document to rate it as a kernel engineer would.

    labelled     the labelled set of real documents (data/vision/labels): label files → texts → Documents
    splits       train / dev / test by family (data/vision/splits.toml)
    evaluate     the issue's metrics on a split, scored through the real pipeline into a temporary database
    analysis     words as the Vision counts them: Snowball stems, word pairs, CJK characters
    doctype      the document type, from text and structure
    signals      structural figures (explanation, code, math, measurements, headings, length)
    topic        relevance against a topic profile, with word senses told apart
    value_model  the learned value: a linear model over named features and TF-IDF word pairs, explained
    copies       redundancy without boilerplate, and which copy of a group to keep

Nothing here writes to the database: ``pipeline.score`` calls these functions and stores what they return.
"""

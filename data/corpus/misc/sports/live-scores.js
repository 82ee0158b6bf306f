// live score ticker (not used offline)

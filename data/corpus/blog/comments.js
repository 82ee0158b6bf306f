function loadComments(id) { /* comments are loaded from a third-party service */ }

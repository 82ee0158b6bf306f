from shijie.cli import main

main()

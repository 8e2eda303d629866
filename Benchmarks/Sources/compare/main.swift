import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  if arguments.first == "--memory-probe" {
    try MemoryProbe.runChild(Array(arguments.dropFirst()))
  } else if arguments.first == "--instruction-probe" {
    try InstructionProbe.runChild(Array(arguments.dropFirst()))
  } else if arguments.first == "--encode-instruction-probe" {
    try InstructionProbe.runEncodeChild(Array(arguments.dropFirst()))
  } else if arguments.first == "--validate-memory-probe" {
    try ValidateWork.runChild(Array(arguments.dropFirst()))
  } else if arguments.first == "--value-probe" {
    try ValueWork.runChild(Array(arguments.dropFirst()))
  } else {
    try Comparison(CompareOptions(arguments)).run()
  }
} catch {
  FileHandle.standardError.write(Data("compare: \(error)\n".utf8))
  exit(1)
}
